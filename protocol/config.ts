/**
 * Types a setting can have; each UI renders and checks a value by its type. A `duration` is stored as
 * milliseconds and a `size` as bytes; both are typed the way protocol/units.ts reads them (`2m`, `8MiB`).
 */
export const CONFIG_TYPES = ['string', 'int', 'float', 'bool', 'enum', 'path', 'duration', 'size', 'password', 'json'] as const;
export type ConfigType = (typeof CONFIG_TYPES)[number];

/** Metadata of one setting, from which every UI renders it without knowing it in advance. */
export interface ConfigDef {
  /** Key inside its table, e.g. `core.memory.graph` or `socket_mode`. */
  key: string;
  /** Value type; `password` values are never shown in clear. */
  type: ConfigType;
  /** What it does, in Chinese and English. */
  description?: { zh?: string; en?: string };
  /** Group it is shown under. */
  category?: string;
  /** Allowed values of an `enum`. */
  options?: string[];
  /** Value used when none is stored. */
  default?: unknown;
  /** Lowest allowed number (int, float, duration in ms, size in bytes). */
  min?: number;
  /** Highest allowed number (int, float, duration in ms, size in bytes). */
  max?: number;
  /** Read once at start: a new value takes effect when homed restarts (for a plugin's key, when the plugin does). */
  restart?: boolean;
  /** Written only by its owner (homed for a core key): `set` and `unset` are refused, and this says what to do instead. */
  readOnly?: string;
  /**
   * Widens what the agent may do or reach (approvals, roots, private addresses, the page's reach, exec's limits):
   * changed only by the owner on the machine, through homectl; the page shows it read-only with the command.
   */
  guarded?: boolean;
}

/** One setting as listed: its value (masked for passwords), where it came from, and its metadata. */
export interface ConfigEntry {
  /** Table the key lives in: `core` or a plugin's name. */
  scope: string;
  /** Key inside the table. */
  key: string;
  /** Stored value, or the default; `"********"` for a set password. */
  value: unknown;
  /** Whether a value is stored (false: the default is shown). */
  isSet: boolean;
  /** Metadata, when the key is declared. */
  def?: ConfigDef;
  /** In a list answer, for a value too big to list: its size in bytes of JSON (`value` is then null; config/get reads it). */
  omittedBytes?: number;
  /** A duration's or a size's value as people write it (`2m`, `8MiB`); `value` keeps the stored number. */
  display?: string;
}

import { objectSchema, request, type ParamPermission } from './descriptor';
import { ANY_FIELD, BOOLEAN_FIELD, CONFIG_KEY_FIELD, CONFIG_SCOPE_FIELD } from './fields';

/** The core table's scope name. */
const CORE = 'core';

/**
 * A plugin's own table is free to read and write; another plugin's table needs `config.others` or `admin`;
 * writing the core table needs `admin`.
 */
function scopePermission(method: string, scope: string | undefined, caller: string, write: boolean): ParamPermission | undefined {
  if (scope === undefined || scope === caller) return undefined;
  return { anyOf: scope === CORE && write ? ['admin'] : ['config.others', 'admin'], what: method };
}

/** Names a table: omitted means the caller's own; `core` or another plugin's name needs a permission. */
export interface ConfigScopeParams {
  /** `core`, or a plugin name; default: the calling plugin's own table. */
  scope?: string;
}

export interface ConfigGetParams extends ConfigScopeParams {
  /** Key to read. */
  key: string;
}
export interface ConfigGetResult {
  /** The entry (value masked if it is a password and the caller is not its owner). */
  entry: ConfigEntry;
}
/** plugin → kernel: read one setting. */
export const ConfigGetRequest = request<ConfigGetParams, ConfigGetResult>('config/get', {
  params: objectSchema({ scope: CONFIG_SCOPE_FIELD, key: CONFIG_KEY_FIELD }, ['key']),
  permission: null,
  paramPermission: (p, caller) => scopePermission('config/get', p.scope, caller, false),
});

/**
 * The hook for the machine's owner: a client protocol server (the cli plugin) sets `owner` only on calls of a
 * person it knows to be the owner at the machine (homectl on its socket); it needs the `config.guarded` permission.
 * Without it a guarded setting (ConfigDef.guarded) is refused, whoever asks: the page, another plugin, a bridge.
 */
export interface ConfigOwnerParams {
  /** The call is the machine owner's own (see above): guarded settings may change. */
  owner?: boolean;
}

export interface ConfigSetParams extends ConfigScopeParams, ConfigOwnerParams {
  /** Key to write. */
  key: string;
  /** New value, checked against the key's ConfigDef; strings are parsed by type. */
  value: unknown;
}
export interface ConfigSetResult {
  /** The entry as stored (password masked). */
  entry: ConfigEntry;
}
/** plugin → kernel: write one setting; publishes `config.changed`. */
export const ConfigSetRequest = request<ConfigSetParams, ConfigSetResult>('config/set', {
  params: objectSchema({ scope: CONFIG_SCOPE_FIELD, key: CONFIG_KEY_FIELD, value: ANY_FIELD, owner: BOOLEAN_FIELD }, ['key', 'value']),
  permission: null,
  paramPermission: (p, caller) => scopePermission('config/set', p.scope, caller, true),
});

export interface ConfigListParams extends ConfigScopeParams {
  /** List every table the caller may read (admin only). */
  all?: boolean;
}
export interface ConfigListResult {
  /** Every declared or stored key, password values masked. */
  entries: ConfigEntry[];
}
/** plugin → kernel: list settings with their metadata. */
export const ConfigListRequest = request<ConfigListParams, ConfigListResult>('config/list', {
  params: objectSchema({ scope: CONFIG_SCOPE_FIELD, all: BOOLEAN_FIELD }),
  permission: null,
  paramPermission: (p, caller) => (p.all ? { anyOf: ['admin'], what: 'config/list' } : scopePermission('config/list', p.scope, caller, false)),
});

export interface ConfigUnsetParams extends ConfigScopeParams, ConfigOwnerParams {
  /** Key whose stored value is removed, so its default applies again. */
  key: string;
}
export interface ConfigUnsetResult {
  /** The entry as it now reads: the default, `isSet` false (password masked). */
  entry: ConfigEntry;
  /** Whether a value was stored and is now gone (false: it already read its default). */
  removed: boolean;
}
/** plugin → kernel: return a setting to its default; publishes `config.changed` when a value was removed. */
export const ConfigUnsetRequest = request<ConfigUnsetParams, ConfigUnsetResult>('config/unset', {
  params: objectSchema({ scope: CONFIG_SCOPE_FIELD, key: CONFIG_KEY_FIELD, owner: BOOLEAN_FIELD }, ['key']),
  permission: null,
  paramPermission: (p, caller) => scopePermission('config/unset', p.scope, caller, true),
});
