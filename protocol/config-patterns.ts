// Pattern setting keys (`llm.provider.*.api_key`): one `*` stands for a whole segment. The kernel types dynamic keys
// with them, and homectl backup finds the secrets to leave out of a copied settings database with them.

/** What one `*` segment matches in a concrete key: a name without dots. */
const WILDCARD_SEGMENT = '[a-z0-9_-]+';

/** Tells whether a key is a pattern, i.e. has a `*` in it. */
export function isPatternKey(key: string): boolean {
  return key.includes('*');
}

/** Tells whether a concrete key matches a pattern key (or equals a plain one). */
export function matchesPattern(pattern: string, key: string): boolean {
  const source = pattern
    .split('.')
    .map((s) => (s === '*' ? WILDCARD_SEGMENT : s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')))
    .join('\\.');
  return new RegExp(`^${source}$`).test(key);
}
