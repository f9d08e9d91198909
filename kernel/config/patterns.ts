import type { ConfigDef } from '../../protocol';
import { isPatternKey, matchesPattern } from '../../protocol/config-patterns';

export { isPatternKey, matchesPattern };

// A pattern definition has `*` for whole segments of its key, e.g. `llm.provider.*.api_key`: it gives
// the type and description of every key that matches it (`llm.provider.work.api_key`), so dynamic
// keys can be typed (a password stays masked) without a definition per name.

/** Returns why a pattern key is malformed, or undefined if it is fine (each `*` a whole segment, one literal segment at least). */
export function patternKeyProblem(key: string): string | undefined {
  const segments = key.split('.');
  if (segments.some((s) => s !== '*' && s.includes('*'))) return 'uses * inside a segment; a * must stand for a whole segment, like llm.provider.*.api_key';
  if (segments.every((s) => s === '*')) return 'is made only of *; name at least one segment, like llm.provider.*.api_key';
  return undefined;
}

/** Replaces each `*` of a pattern by a sample name, to check the rest of the key like any other key. */
export function sampleKeyOf(pattern: string): string {
  return pattern
    .split('.')
    .map((s) => (s === '*' ? 'x' : s))
    .join('.');
}

/** Picks the pattern definition that applies to `key`: the one with fewest `*`, then the first by key; undefined if none. */
export function pickPatternDef(defs: Iterable<ConfigDef>, key: string): ConfigDef | undefined {
  let best: ConfigDef | undefined;
  let bestStars = Infinity;
  for (const def of defs) {
    if (!isPatternKey(def.key) || !matchesPattern(def.key, key)) continue;
    const stars = def.key.split('.').filter((s) => s === '*').length;
    if (stars < bestStars || (stars === bestStars && best !== undefined && def.key < best.key)) {
      best = def;
      bestStars = stars;
    }
  }
  return best;
}
