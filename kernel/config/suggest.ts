// "Did you mean …": the defined key closest to one that is not defined, so a typo is caught and corrected.
import { editDistance } from '../memory/fuzzy';

/** Most edits a suggestion may be away: a quarter of the typed key, at least 2 (`levle` → `level` is 2). */
function maxDistance(typed: string): number {
  return Math.max(2, Math.floor(typed.length / 4));
}

/**
 * The candidate closest to `typed` by edit distance, or one that ends with `.typed` (`log.level` →
 * `core.log.level`); undefined when none is close enough. Ties go to the first by key.
 */
export function closestKey(typed: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = maxDistance(typed) + 1;
  for (const candidate of [...candidates].sort()) {
    if (candidate.endsWith(`.${typed}`)) return candidate;
    const distance = editDistance(typed, candidate, bestDistance - 1);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
