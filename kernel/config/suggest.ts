// "Did you mean …": the defined key closest to one that is not defined, so a typo is caught and corrected.
import { isPatternKey } from './patterns';
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

/**
 * A pattern key (`llm.provider.*.model`) with each `*` filled by the typed key's segment in that place
 * (`llm.provider.work.modle` → `llm.provider.work.model`), so a typo in a dynamic key is measured only on the
 * pattern's fixed words and the suggestion keeps the name the person chose; undefined when the segment counts differ.
 */
export function patternAsTyped(pattern: string, typed: string): string | undefined {
  const fixed = pattern.split('.');
  const given = typed.split('.');
  if (fixed.length !== given.length) return undefined;
  return fixed.map((segment, i) => (segment === '*' ? (given[i] ?? segment) : segment)).join('.');
}

/** The keys a typo of `typed` may be meant as: each plain key, and each pattern filled with the typed names. */
export function suggestionCandidates(typed: string, keys: Iterable<string>): string[] {
  const out: string[] = [];
  for (const key of keys) {
    if (!isPatternKey(key)) out.push(key);
    else {
      const filled = patternAsTyped(key, typed);
      if (filled !== undefined) out.push(filled);
    }
  }
  return out;
}
