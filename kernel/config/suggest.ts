// "Did you mean …": the defined key closest to one that is not defined, so a typo is caught and corrected.

/** Most edits a suggestion may be away: a quarter of the typed key, at least 2 (`levle` → `level` is 1). */
function maxDistance(typed: string): number {
  return Math.max(2, Math.floor(typed.length / 4));
}

/**
 * The candidate closest to `typed` by edit distance (insert, delete, replace, swap two neighbours), or one that
 * ends with `.typed` (`log.level` → `core.log.level`); undefined when none is close enough. Ties go to the first by key.
 */
export function closestKey(typed: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = maxDistance(typed) + 1;
  for (const candidate of [...candidates].sort()) {
    if (candidate.endsWith(`.${typed}`)) return candidate;
    const distance = editDistance(typed, candidate, bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Optimal string alignment distance, giving up (answering `limit`) once every path costs at least `limit`. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowBest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      current.push(d);
      rowBest = Math.min(rowBest, d);
    }
    if (rowBest >= limit) return limit;
    before = previous;
    previous = current;
  }
  return Math.min(previous[b.length]!, limit);
}
