// Checks values against the protocol's JSON Schemas with one ajv instance per process (strict mode), each schema
// compiled once, and says what was wrong the way a person reads it: where, what, and what is allowed.
// Not re-exported from protocol/index: only the processes that check (homed, the cli plugin) load ajv.
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { JsonSchema } from '../descriptor';

let shared: Ajv | undefined;
const compiled = new WeakMap<object, ValidateFunction>();

/** The process's one ajv instance: strict, so a schema that says something ajv would ignore does not compile. */
export function schemaCompiler(): Ajv {
  shared ??= new Ajv({ strict: true, allowUnionTypes: true, verbose: true });
  return shared;
}

/** A schema's compiled check, compiled on first use and kept for as long as the schema object lives. */
export function compiledCheck(schema: JsonSchema): ValidateFunction {
  let check = compiled.get(schema);
  if (!check) {
    check = schemaCompiler().compile(schema);
    compiled.set(schema, check);
  }
  return check;
}

/**
 * What makes `schema` no JSON Schema at all, by ajv's meta-schema (a few µs, where compiling it costs ms); undefined
 * when it is one. Strict mode's own refusals (an unknown keyword, say) show only when it is compiled.
 */
export function schemaShapeProblem(schema: unknown): string | undefined {
  const ajv = schemaCompiler();
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return 'it is not an object';
  return ajv.validateSchema(schema) === true ? undefined : ajv.errorsText(ajv.errors, { dataVar: 'schema' });
}

/** Why `schema` does not compile, or undefined when it does (it is then kept compiled). */
export function compileProblem(schema: JsonSchema): string | undefined {
  try {
    compiledCheck(schema);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** What is wrong with `value` (named `root` in the message), or undefined when it matches the schema. */
export function schemaProblem(schema: JsonSchema, value: unknown, root: string): string | undefined {
  const check = compiledCheck(schema);
  return check(value) ? undefined : describeSchemaErrors(check.errors, root);
}

/** One sentence about ajv's first error: where it is and what the schema allows there. */
export function describeSchemaErrors(errors: ErrorObject[] | null | undefined, root: string): string {
  const first = errors?.find((e) => e.keyword !== 'anyOf' && !e.schemaPath.includes('/anyOf/')) ?? errors?.[0];
  if (!first) return `${root} does not match the schema`;
  const where = `${root}${first.instancePath.replace(/\/(\d+)(?=\/|$)/g, '[$1]').replace(/\//g, '.')}`;
  const params = first.params as Record<string, unknown>;
  const parent = first.parentSchema as { description?: unknown } | undefined;
  switch (first.keyword) {
    case 'required':
      if (first.schemaPath.includes('/anyOf/')) return `${where} needs ${alternatives(errors ?? [])}`;
      return `${where} needs "${String(params['missingProperty'])}"`;
    case 'additionalProperties':
      return `${where} has unknown property "${String(params['additionalProperty'])}"`;
    case 'enum':
      return `${where} must be one of ${(params['allowedValues'] as unknown[]).map(String).join(', ')}`;
    case 'maxLength':
      return `${where} is ${lengthOf(first.data)} characters; the most is ${String(params['limit'])}`;
    case 'minLength':
      return `${where} must not be empty`;
    case 'maxItems':
      return `${where} holds ${lengthOf(first.data)} items; the most is ${String(params['limit'])}`;
    case 'minItems':
      return `${where} must hold at least ${String(params['limit'])} item${params['limit'] === 1 ? '' : 's'}`;
    case 'pattern':
      return typeof parent?.description === 'string'
        ? `${where} ${JSON.stringify(first.data).slice(0, 80)} is not ${parent.description}`
        : `${where} must match ${String(params['pattern'])}`;
    default:
      return `${where} ${first.message ?? 'is invalid'}${first.keyword === 'type' ? `, not ${typeName(first.data)}` : ''}`;
  }
}

/** `"path", or "name" and "text"`: the required properties of each anyOf branch, from their errors. */
function alternatives(errors: ErrorObject[]): string {
  const branches = new Map<string, string[]>();
  for (const error of errors) {
    const branch = /\/anyOf\/\d+/.exec(error.schemaPath)?.[0];
    if (!branch || error.keyword !== 'required') continue;
    const required = ((error.parentSchema as { required?: string[] } | undefined)?.required ?? []).map((p) => `"${p}"`);
    branches.set(branch, required);
  }
  return [...branches.values()].map((names) => names.join(' and ')).join(', or ');
}

function lengthOf(value: unknown): number {
  return typeof value === 'string' || Array.isArray(value) ? value.length : 0;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
