import { CONFIG_TYPES, type ConfigDef } from '../../protocol';
import { ConfigError, labelOf } from './errors';
import { isPatternKey, patternKeyProblem, sampleKeyOf } from './patterns';
import { coerceValue, describeExpected, ValueProblem } from './value';

/** Keys look like `core.memory.graph` or `api_key`; the same rule as in plugin manifests. */
export const CONFIG_KEY = /^[a-z0-9_][a-z0-9_.-]{0,127}$/;

/** Throws unless `key` is a well-formed setting key (a concrete one: a pattern with `*` names no single setting). */
export function assertKey(scope: string, key: string): void {
  if (typeof key === 'string' && isPatternKey(key) && CONFIG_KEY.test(sampleKeyOf(key))) {
    throw new ConfigError(`${labelOf(scope, key)} is a pattern, not a setting; replace each * with a name, like ${key.replace(/\*/g, 'work')}`, { scope, key });
  }
  if (typeof key !== 'string' || !CONFIG_KEY.test(key)) {
    throw new ConfigError(
      `${JSON.stringify(key)} is not a valid setting key in ${scope}; use 1-128 lower-case letters, digits, '_', '.' and '-', like "log.level"`,
      { scope, key: String(key) },
    );
  }
}

/** Checks a scope's definitions and returns clean copies, defaults in stored form (durations in ms). */
export function validateDefs(scope: string, defs: readonly ConfigDef[]): ConfigDef[] {
  const seen = new Set<string>();
  return defs.map((def) => {
    assertDefKey(scope, def.key);
    if (seen.has(def.key)) refuse(scope, def.key, 'is defined twice');
    seen.add(def.key);
    return validateDef(scope, def);
  });
}

// A definition's key may be a pattern such as `llm.provider.*.api_key` (see patterns.ts).
function assertDefKey(scope: string, key: string): void {
  if (typeof key !== 'string' || !isPatternKey(key)) return assertKey(scope, key);
  const problem = patternKeyProblem(key);
  if (problem !== undefined) refuse(scope, key, problem);
  if (!CONFIG_KEY.test(sampleKeyOf(key))) {
    refuse(scope, key, "is not a valid key pattern; use lower-case letters, digits, '_', '.', '-' and * for whole segments, like llm.provider.*.api_key");
  }
}

function validateDef(scope: string, def: ConfigDef): ConfigDef {
  const { key } = def;
  if (!(CONFIG_TYPES as readonly string[]).includes(def.type)) {
    refuse(scope, key, `has unknown type ${JSON.stringify(def.type)}; use one of ${CONFIG_TYPES.join(', ')}`);
  }
  const clean: ConfigDef = { key, type: def.type };
  if (def.description !== undefined) clean.description = cleanDescription(scope, def);
  if (def.category !== undefined) {
    if (typeof def.category !== 'string') refuse(scope, key, 'has a category that is not a string');
    clean.category = def.category;
  }
  if (def.type === 'enum') {
    const options = def.options;
    if (!Array.isArray(options) || options.length === 0 || !options.every((o) => typeof o === 'string')) {
      refuse(scope, key, 'is an enum without options; list its allowed values in "options", like ["low", "high"]');
    }
    if (new Set(options).size !== options.length) refuse(scope, key, 'lists an enum option twice');
    clean.options = [...options];
  }
  for (const bound of ['min', 'max'] as const) {
    const n = def[bound];
    if (n === undefined) continue;
    if (typeof n !== 'number' || !Number.isFinite(n)) refuse(scope, key, `has a ${bound} that is not a finite number`);
    clean[bound] = n;
  }
  if (clean.min !== undefined && clean.max !== undefined && clean.min > clean.max) {
    refuse(scope, key, `has min ${clean.min} above max ${clean.max}`);
  }
  if (def.default !== undefined) clean.default = cleanDefault(scope, clean, def.default);
  if (def.restart !== undefined) {
    if (typeof def.restart !== 'boolean') refuse(scope, key, 'has a restart that is not true or false');
    if (def.restart) clean.restart = true;
  }
  if (def.readOnly !== undefined) {
    if (typeof def.readOnly !== 'string' || def.readOnly === '') refuse(scope, key, 'has a readOnly that is not a text saying what to do instead');
    clean.readOnly = def.readOnly;
  }
  if (def.guarded !== undefined) {
    if (typeof def.guarded !== 'boolean') refuse(scope, key, 'has a guarded that is not true or false');
    if (def.guarded) clean.guarded = true;
  }
  return clean;
}

function cleanDescription(scope: string, def: ConfigDef): { zh?: string; en?: string } {
  const description: { zh?: string; en?: string } = {};
  for (const lang of ['zh', 'en'] as const) {
    const text: unknown = def.description?.[lang];
    if (text === undefined) continue;
    if (typeof text !== 'string') refuse(scope, def.key, `has a description.${lang} that is not a string`);
    description[lang] = text;
  }
  return description;
}

function cleanDefault(scope: string, def: ConfigDef, value: unknown): unknown {
  // A default ships in clear inside the manifest, so a secret cannot have one.
  if (def.type === 'password' && value !== '') {
    refuse(scope, def.key, 'is a password with a default; a password default would ship in clear, so leave it out');
  }
  const stored = coerceValue(def, value);
  if (stored instanceof ValueProblem) {
    refuse(scope, def.key, `has a default that fails its own check: ${stored.problem}; use ${describeExpected(def)}`);
  }
  return stored;
}

function refuse(scope: string, key: string, problem: string): never {
  throw new ConfigError(`definition of ${labelOf(scope, key)} ${problem}`, { scope, key });
}
