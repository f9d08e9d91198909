/**
 * Whether two JSON-like values would be written as the same JSON text and built into the same Lua tables:
 * the same primitives, and objects of the same kind with the same keys in the same order (the same objects
 * are not walked). Conservative: NaN, or objects of different prototypes, count as different.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  if (aKeys.length !== bKeys.length) return false;
  for (let i = 0; i < aKeys.length; i++) {
    const key = aKeys[i] as string;
    if (key !== bKeys[i] || !sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}
