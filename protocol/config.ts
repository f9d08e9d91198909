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

import { RequestType } from 'vscode-jsonrpc';

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
export namespace ConfigGetRequest {
  export const method = 'config/get' as const;
  export const type = new RequestType<ConfigGetParams, ConfigGetResult, void>(method);
}

export interface ConfigSetParams extends ConfigScopeParams {
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
export namespace ConfigSetRequest {
  export const method = 'config/set' as const;
  export const type = new RequestType<ConfigSetParams, ConfigSetResult, void>(method);
}

export interface ConfigListParams extends ConfigScopeParams {
  /** List every table the caller may read (admin only). */
  all?: boolean;
}
export interface ConfigListResult {
  /** Every declared or stored key, password values masked. */
  entries: ConfigEntry[];
}
/** plugin → kernel: list settings with their metadata. */
export namespace ConfigListRequest {
  export const method = 'config/list' as const;
  export const type = new RequestType<ConfigListParams, ConfigListResult, void>(method);
}

export interface ConfigUnsetParams extends ConfigScopeParams {
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
export namespace ConfigUnsetRequest {
  export const method = 'config/unset' as const;
  export const type = new RequestType<ConfigUnsetParams, ConfigUnsetResult, void>(method);
}
