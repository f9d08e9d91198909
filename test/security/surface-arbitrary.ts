// fast-check arbitraries from the JSON Schemas of the descriptors: values the schema accepts, leaning on the names
// and paths the test wants hit (real plugins, real config keys, paths that lead out of the data dir). Covers the
// keywords the protocol's schemas use: type (one or a list), properties, required, additionalProperties, enum,
// const, anyOf, oneOf, items, minItems, maxItems, uniqueItems, minLength, maxLength, pattern, minimum, maximum.
import fc from 'fast-check';
import type { JsonSchema } from '../../protocol';

/** Strings to favour for a property of a given name (`path`, `name`, `key`…), and for any string. */
export interface Hints {
  /** By property name. */
  byName: Record<string, fc.Arbitrary<string>>;
  /** Mixed into every string. */
  anyString: fc.Arbitrary<string>;
}

/** Longest string or array made for a schema without a bound of its own: mutations make the huge ones. */
const SOFT_MAX_LENGTH = 80;
const SOFT_MAX_ITEMS = 6;

/** An arbitrary of values that `schema` accepts (as far as a generator can tell without ajv), named `name`. */
export function arbitraryFromSchema(schema: JsonSchema, hints: Hints, name = ''): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema['const']);
  if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as unknown[]));
  const alternatives = (schema['anyOf'] ?? schema['oneOf']) as JsonSchema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map((alt) => arbitraryFromSchema({ ...withoutCombinators(schema), ...alt }, hints, name)));
  const type = schema['type'];
  if (Array.isArray(type)) return fc.oneof(...(type as string[]).map((t) => arbitraryFromSchema({ ...schema, type: t }, hints, name)));
  switch (type) {
    case 'object':
      return objectArbitrary(schema, hints);
    case 'array':
      return arrayArbitrary(schema, hints, name);
    case 'string':
      return stringArbitrary(schema, hints, name);
    case 'integer':
      return fc.integer({ min: bound(schema['minimum'], -(2 ** 31)), max: bound(schema['maximum'], 2 ** 31) });
    case 'number':
      return fc.double({ min: bound(schema['minimum'], -1e9), max: bound(schema['maximum'], 1e9), noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      // No type: any JSON (ANY_FIELD), strings leaning on the hints.
      return fc.oneof({ arbitrary: stringArbitrary({}, hints, name), weight: 1 }, { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 });
  }
}

function withoutCombinators(schema: JsonSchema): JsonSchema {
  const rest: Record<string, unknown> = { ...schema };
  delete rest['anyOf'];
  delete rest['oneOf'];
  return rest;
}

function bound(value: unknown, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}

function objectArbitrary(schema: JsonSchema, hints: Hints): fc.Arbitrary<unknown> {
  const properties = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = (schema['required'] ?? []) as string[];
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, sub] of Object.entries(properties)) model[key] = arbitraryFromSchema(sub, hints, key);
  // A required name the schema gives no properties entry for still gets a value.
  for (const key of required) model[key] ??= arbitraryFromSchema({}, hints, key);
  return fc.record(model, { requiredKeys: required.filter((key) => key in model) });
}

function arrayArbitrary(schema: JsonSchema, hints: Hints, name: string): fc.Arbitrary<unknown> {
  const items = arbitraryFromSchema((schema['items'] ?? {}) as JsonSchema, hints, name);
  const minLength = bound(schema['minItems'], 0);
  const maxLength = Math.max(minLength, Math.min(bound(schema['maxItems'], SOFT_MAX_ITEMS), SOFT_MAX_ITEMS));
  if (schema['uniqueItems'] === true) return fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) });
  return fc.array(items, { minLength, maxLength });
}

function stringArbitrary(schema: JsonSchema, hints: Hints, name: string): fc.Arbitrary<string> {
  const minLength = bound(schema['minLength'], 0);
  const maxLength = bound(schema['maxLength'], Number.MAX_SAFE_INTEGER);
  // Clamped, not filtered: a filter that nothing passes would spin forever.
  const fit = (s: string): string => (s.length > maxLength ? s.slice(0, maxLength) : s.padEnd(minLength, 'x'));
  const plain =
    typeof schema['pattern'] === 'string'
      ? fc.stringMatching(new RegExp(schema['pattern'])).map(fit)
      : fc.string({ unit: 'grapheme', minLength, maxLength: Math.max(minLength, Math.min(maxLength, SOFT_MAX_LENGTH)) });
  // Mostly a favoured string for a field whose name has hints (a path field gets paths out of the data dir), a third of
  // the time for any other; a favoured string may fail a pattern, and then the call must be refused.
  const named = hints.byName[name];
  return fc.oneof({ arbitrary: plain, weight: 2 }, ...(named ? [{ arbitrary: named.map(fit), weight: 4 }] : []), {
    arbitrary: hints.anyString.map(fit),
    weight: 1,
  });
}
