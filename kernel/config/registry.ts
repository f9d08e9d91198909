import type Database from '../../protocol/runtime/internals/sqlite';
import { ErrorCodes, type ConfigDef, type ConfigEntry } from '../../protocol';
import { ensureValueTable, forgetStatements, hasValueTable, listTables, openConfigDatabase, prepareCached } from './database';
import { assertKey, validateDefs } from './defs';
import { ConfigError, labelOf } from './errors';
import { maskEntry } from './mask';
import { isPatternKey, pickPatternDef } from './patterns';
import { PluginStateStore } from './plugin-state';
import { assertPluginName, assertScope, CORE_SCOPE, scopeOfTable, tableOf } from './scope';
import { describeOversize } from './size';
import { closestKey, suggestionCandidates } from './suggest';
import { diskFullError, isDiskFull } from '../files/disk-full';
import { coerceValue, describeExpected, displayOf, isJsonValue, ValueProblem } from './value';

/** A successful set or unset, with the entry as a person may see it. */
export interface ConfigChange {
  scope: string;
  key: string;
  /** Masked: a password is never in clear here. */
  entry: ConfigEntry;
}
export type ConfigListener = (change: ConfigChange) => void;

/**
 * Who writes a setting. The `owner` (homed for core keys, a plugin for its own table when it names no scope)
 * may write read-only keys and keys of its own table it never declared (its private state). Everyone else sets
 * only declared, writable keys: the `machine-owner` (the person at the machine, through homectl) guarded ones
 * too, `other` (another plugin, a plugin relaying for the page or a bridge) only those that are not guarded.
 */
export type ConfigWriter = 'owner' | 'machine-owner' | 'other';

type Stored = { value: unknown } | undefined;

/** Settings of the kernel and of every plugin, with their metadata, in one SQLite file. */
export class ConfigRegistry {
  private readonly listeners = new Set<ConfigListener>();
  private readonly pluginState: PluginStateStore;

  private constructor(private readonly db: Database.Database) {
    this.pluginState = new PluginStateStore(db);
  }

  /** Opens the registry stored in `file`, creating it (mode 0600) if needed; `:memory:` works for tests. */
  static open(file: string): ConfigRegistry {
    return new ConfigRegistry(openConfigDatabase(file));
  }

  /** Records (or updates) the definitions of a scope's settings. */
  define(scope: string, defs: readonly ConfigDef[]): void {
    assertScope(scope);
    const clean = validateDefs(scope, defs);
    const upsert = prepareCached(
      this.db,
      'INSERT INTO config_defs (scope, key, def) VALUES (?, ?, ?) ON CONFLICT (scope, key) DO UPDATE SET def = excluded.def',
    );
    this.db
      .transaction(() => {
        ensureValueTable(this.db, scope);
        for (const def of clean) upsert.run(scope, def.key, JSON.stringify(def));
      })
      .immediate();
  }

  /** Returns one setting, password masked; throws NotFound if it is neither declared (exactly or by a pattern) nor stored. */
  get(scope: string, key: string): ConfigEntry {
    this.assertAddress(scope, key);
    const def = this.readDef(scope, key);
    const stored = this.readStored(scope, key);
    if (def === undefined && stored === undefined) throw this.unknownKey(scope, key);
    return maskEntry(buildEntry(scope, key, def, stored));
  }

  /** Returns the value in effect, stored or default, in clear: for the kernel's own use, never for showing. */
  getValue(scope: string, key: string): unknown {
    this.assertAddress(scope, key);
    const stored = this.readStored(scope, key);
    return stored !== undefined ? stored.value : this.readDef(scope, key)?.default;
  }

  /**
   * Lists a scope's declared and stored settings sorted by key, passwords masked. A stored key that only a
   * pattern definition covers carries that definition (its `def.key` has the `*`). Each pattern definition is
   * listed too, as an entry whose key contains `*` and `isSet: false`, so a UI can offer the keys it allows.
   */
  list(scope: string): ConfigEntry[] {
    assertScope(scope);
    const defs = this.readDefs(scope);
    const patterns = [...defs.values()].filter((def) => isPatternKey(def.key));
    const stored = this.readAllStored(scope);
    const keys = [...new Set([...defs.keys(), ...stored.keys()])].sort(compareText);
    return keys.map((key) => {
      const def = defs.get(key) ?? pickPatternDef(patterns, key);
      return maskEntry(buildEntry(scope, key, def, stored.has(key) ? { value: stored.get(key) } : undefined));
    });
  }

  /** Returns a scope's pattern definitions (keys with `*`, like `llm.provider.*.api_key`), sorted by key. */
  patternDefs(scope: string): ConfigDef[] {
    assertScope(scope);
    return [...this.readDefs(scope).values()].filter((def) => isPatternKey(def.key)).sort((a, b) => compareText(a.key, b.key));
  }

  /** Lists every scope that has settings: `core` first, then plugins by name. */
  scopes(): string[] {
    const plugins = new Set<string>();
    for (const table of listTables(this.db)) {
      const scope = scopeOfTable(table);
      if (scope !== undefined) plugins.add(scope);
    }
    const rows = prepareCached<[string], { scope: string }>(this.db, 'SELECT DISTINCT scope FROM config_defs WHERE scope != ?').all(CORE_SCOPE);
    for (const row of rows) plugins.add(row.scope);
    return [CORE_SCOPE, ...[...plugins].sort(compareText)];
  }

  /**
   * Checks a value against its definition (strings are parsed by type) and its size (at most MAX_VALUE_BYTES of
   * JSON), stores it and returns the masked entry. Anyone but the owner must name a declared key that is not read-only.
   */
  set(scope: string, key: string, value: unknown, by: ConfigWriter = 'owner'): ConfigEntry {
    return this.writing(`${labelOf(scope, key)} was not changed`, () => this.store(scope, key, value, by));
  }

  /** Runs a write of a setting; a full disk is HA_ERR_DISK_FULL naming the settings file, not an internal error. */
  private writing<T>(what: string, write: () => T): T {
    try {
      return write();
    } catch (error) {
      if (isDiskFull(error)) throw diskFullError(this.db.name, what, 'set it again');
      throw error;
    }
  }

  private store(scope: string, key: string, value: unknown, by: ConfigWriter): ConfigEntry {
    this.assertAddress(scope, key);
    const entry = this.db
      .transaction((): ConfigEntry => {
        const def = this.readDef(scope, key);
        if (by !== 'owner' && def === undefined) throw this.unknownKey(scope, key);
        if (by !== 'owner' && def?.readOnly !== undefined) throw readOnlyError(scope, key, def.readOnly);
        if (by === 'other' && def?.guarded === true) throw guardedError(scope, key, 'set');
        const stored = def === undefined ? checkUndeclared(value) : coerceValue(def, value);
        if (stored instanceof ValueProblem) {
          const expected = def === undefined ? 'a string, number, true/false or other JSON value' : describeExpected(def);
          throw new ConfigError(`${labelOf(scope, key)}: ${stored.problem}; use ${expected}`, { scope, key });
        }
        const json = JSON.stringify(stored);
        const oversize = describeOversize(Buffer.byteLength(json, 'utf8'));
        if (oversize) throw new ConfigError(`${labelOf(scope, key)}: ${oversize}`, { scope, key });
        ensureValueTable(this.db, scope);
        prepareCached(this.db, `INSERT INTO ${tableOf(scope)} (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run(
          key,
          json,
        );
        return maskEntry(buildEntry(scope, key, def, { value: stored }));
      })
      .immediate();
    this.notify({ scope, key, entry });
    return entry;
  }

  /**
   * Removes a stored value so the default applies again; returns the masked entry as it now reads. Anyone but
   * the owner may not unset a read-only key, and must name a key that is declared or stored (an old one included).
   */
  unset(scope: string, key: string, by: ConfigWriter = 'owner'): ConfigEntry {
    return this.writing(`${labelOf(scope, key)} was not reset`, () => this.remove(scope, key, by));
  }

  private remove(scope: string, key: string, by: ConfigWriter): ConfigEntry {
    this.assertAddress(scope, key);
    const { removed, entry } = this.db
      .transaction(() => {
        if (by !== 'owner') {
          const def = this.readDef(scope, key);
          if (def === undefined && this.readStored(scope, key) === undefined) throw this.unknownKey(scope, key);
          if (def?.readOnly !== undefined) throw readOnlyError(scope, key, def.readOnly);
          if (by === 'other' && def?.guarded === true) throw guardedError(scope, key, 'unset');
        }
        const changes = hasValueTable(this.db, scope) ? prepareCached(this.db, `DELETE FROM ${tableOf(scope)} WHERE key = ?`).run(key).changes : 0;
        return { removed: changes > 0, entry: maskEntry(buildEntry(scope, key, this.readDef(scope, key), undefined)) };
      })
      .immediate();
    if (removed) this.notify({ scope, key, entry });
    return entry;
  }

  /** Removes keys no longer in use, definition and stored value alone (no change is published); answers how many rows went. */
  forget(scope: string, keys: readonly string[]): number {
    assertScope(scope);
    return this.db
      .transaction(() => {
        let removed = 0;
        for (const key of keys) {
          removed += prepareCached(this.db, 'DELETE FROM config_defs WHERE scope = ? AND key = ?').run(scope, key).changes;
          if (hasValueTable(this.db, scope)) removed += prepareCached(this.db, `DELETE FROM ${tableOf(scope)} WHERE key = ?`).run(key).changes;
        }
        return removed;
      })
      .immediate();
  }

  /** Deletes a plugin's settings and their definitions (for `remove --purge`); its enabled state stays. */
  dropScope(plugin: string): void {
    assertPluginName(plugin);
    this.db
      .transaction(() => {
        this.db.exec(`DROP TABLE IF EXISTS ${tableOf(plugin)}`);
        forgetStatements(this.db);
        prepareCached(this.db, 'DELETE FROM config_defs WHERE scope = ?').run(plugin);
      })
      .immediate();
  }

  /** Calls `listener` after each successful set or unset; returns the function that stops it. */
  onChange(listener: ConfigListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Returns whether a plugin is enabled, or undefined if it was never set. */
  isEnabled(name: string): boolean | undefined {
    return this.pluginState.isEnabled(name);
  }

  /** Persists whether a plugin is enabled. */
  setEnabled(name: string, enabled: boolean): void {
    this.pluginState.setEnabled(name, enabled);
  }

  /** Closes the database; the registry cannot be used afterwards. */
  close(): void {
    this.listeners.clear();
    this.db.close();
  }

  private assertAddress(scope: string, key: string): void {
    assertScope(scope);
    assertKey(scope, key);
  }

  // NotFound, with the closest declared key of the scope when one is near enough to be a typo of it (a pattern key
  // counts, filled with the names the person typed); a core key that starts with a plugin's name
  // (`exec.max_timeout`) may be that plugin's key, written `exec:max_timeout`.
  private unknownKey(scope: string, key: string): ConfigError {
    const declared = [...this.readDefs(scope).keys()];
    const where = scope === CORE_SCOPE ? 'of homed' : `of plugin "${scope}"`;
    const listing = scope === CORE_SCOPE ? 'homectl config list' : `homectl config list --plugin ${scope}`;
    if (declared.length === 0 && scope !== CORE_SCOPE) {
      return new ConfigError(
        `${labelOf(scope, key)} is not a known setting: plugin "${scope}" declares none; is it installed (homectl plugins list)?`,
        { scope, key },
        ErrorCodes.NotFound,
      );
    }
    const near = closestKey(key, suggestionCandidates(key, declared));
    const other = near === undefined && scope === CORE_SCOPE ? this.pluginKeyNear(key) : undefined;
    const suggested = near !== undefined ? labelOf(scope, near) : other !== undefined ? labelOf(other.scope, other.key) : undefined;
    const hint = suggested === undefined ? `${listing} shows every setting` : `did you mean ${suggested}? (${listing} shows every setting)`;
    const facts = near !== undefined ? { suggestion: near } : other !== undefined ? { suggestion: other.key, suggestionScope: other.scope } : {};
    return new ConfigError(`${labelOf(scope, key)} is not a known setting ${where}; ${hint}`, { scope, key, ...facts }, ErrorCodes.NotFound);
  }

  // `exec.max_timeout` typed as a core key: the plugin `exec`'s key nearest `max_timeout`, if any.
  private pluginKeyNear(key: string): { scope: string; key: string } | undefined {
    const dot = key.indexOf('.');
    if (dot <= 0) return undefined;
    const scope = key.slice(0, dot);
    const rest = key.slice(dot + 1);
    if (scope === CORE_SCOPE || !this.scopes().includes(scope)) return undefined;
    const near = closestKey(rest, suggestionCandidates(rest, this.readDefs(scope).keys()));
    return near === undefined ? undefined : { scope, key: near };
  }

  // The exact definition wins; a key without one takes the pattern definition that matches it, if any.
  private readDef(scope: string, key: string): ConfigDef | undefined {
    const row = prepareCached<[string, string], { def: string }>(this.db, 'SELECT def FROM config_defs WHERE scope = ? AND key = ?').get(scope, key);
    if (row !== undefined) return JSON.parse(row.def) as ConfigDef;
    const patterns = prepareCached<[string], { def: string }>(this.db, "SELECT def FROM config_defs WHERE scope = ? AND instr(key, '*') > 0")
      .all(scope)
      .map((r) => JSON.parse(r.def) as ConfigDef);
    return pickPatternDef(patterns, key);
  }

  private readDefs(scope: string): Map<string, ConfigDef> {
    const rows = prepareCached<[string], { key: string; def: string }>(this.db, 'SELECT key, def FROM config_defs WHERE scope = ?').all(scope);
    return new Map(rows.map((row) => [row.key, JSON.parse(row.def) as ConfigDef]));
  }

  private readStored(scope: string, key: string): Stored {
    if (!hasValueTable(this.db, scope)) return undefined;
    const row = prepareCached<[string], { value: string }>(this.db, `SELECT value FROM ${tableOf(scope)} WHERE key = ?`).get(key);
    return row === undefined ? undefined : { value: JSON.parse(row.value) as unknown };
  }

  private readAllStored(scope: string): Map<string, unknown> {
    if (!hasValueTable(this.db, scope)) return new Map();
    const rows = prepareCached<[], { key: string; value: string }>(this.db, `SELECT key, value FROM ${tableOf(scope)}`).all();
    return new Map(rows.map((row) => [row.key, JSON.parse(row.value) as unknown]));
  }

  // A listener that throws must neither undo a committed write nor silence the other listeners.
  private notify(change: ConfigChange): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch (err) {
        process.emitWarning(`config change listener failed for ${labelOf(change.scope, change.key)}: ${String(err)}`, 'ConfigListenerWarning');
      }
    }
  }
}

function buildEntry(scope: string, key: string, def: ConfigDef | undefined, stored: Stored): ConfigEntry {
  const entry: ConfigEntry = { scope, key, value: stored !== undefined ? stored.value : (def?.default ?? null), isSet: stored !== undefined };
  if (def !== undefined) entry.def = def;
  const display = displayOf(def, entry.value);
  if (display !== undefined) entry.display = display;
  return entry;
}

function readOnlyError(scope: string, key: string, instead: string): ConfigError {
  const owner = scope === CORE_SCOPE ? 'homed' : `plugin "${scope}"`;
  return new ConfigError(`${labelOf(scope, key)} is read-only: ${owner} sets it itself; ${instead}`, { scope, key }, ErrorCodes.Conflict);
}

// A guarded setting widens what the agent may do: only the person at the machine changes it, with homectl.
function guardedError(scope: string, key: string, verb: 'set' | 'unset'): ConfigError {
  const command = verb === 'set' ? `homectl config set ${labelOf(scope, key)} VALUE` : `homectl config unset ${labelOf(scope, key)}`;
  return new ConfigError(
    `${labelOf(scope, key)} is guarded: it widens what the agent may do or reach, so only the owner changes it, on the machine running homed: ${command}`,
    { scope, key },
    ErrorCodes.PermissionDenied,
  );
}

function checkUndeclared(value: unknown): unknown {
  if (value === undefined) return new ValueProblem('no value was given');
  return isJsonValue(value) ? value : new ValueProblem('the value cannot be stored as JSON');
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
