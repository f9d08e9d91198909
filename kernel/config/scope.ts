import { ConfigError } from './errors';

/** The scope of the kernel's own settings, kept in table `config`. */
export const CORE_SCOPE = 'core';

const PLUGIN_NAME = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const TABLE_PREFIX = 'config_';
// `defs` would map onto the metadata table `config_defs`.
const RESERVED_PLUGIN_NAMES: Record<string, string> = {
  core: "it names the kernel's own settings",
  defs: 'its table would be the settings metadata table config_defs',
};

/** Throws unless `name` may be a plugin's name (and so a config table suffix). */
export function assertPluginName(name: string): void {
  if (typeof name !== 'string' || !PLUGIN_NAME.test(name)) {
    throw new ConfigError(
      `${JSON.stringify(name)} is not a valid plugin name; use 1-64 lower-case letters, digits and '-', ` +
        'starting and ending with a letter or digit, like "weather" or "home-assistant"',
      { scope: String(name) },
    );
  }
  const reason = RESERVED_PLUGIN_NAMES[name];
  if (reason !== undefined) {
    throw new ConfigError(`"${name}" cannot be a plugin name: ${reason}; pick another name`, { scope: name });
  }
}

/** Throws unless `scope` is `core` or a valid plugin name. */
export function assertScope(scope: string): void {
  if (scope !== CORE_SCOPE) assertPluginName(scope);
}

/** Returns the name of the table holding a scope's values: `config` or `config_<plugin>` with `-` as `_`. */
export function tableNameOf(scope: string): string {
  assertScope(scope);
  return scope === CORE_SCOPE ? 'config' : TABLE_PREFIX + scope.replace(/-/g, '_');
}

/** Returns that table name quoted, ready for SQL. */
export function tableOf(scope: string): string {
  return quoteIdent(tableNameOf(scope));
}

/** Returns the plugin scope a table belongs to, or undefined if it is not a plugin's config table. */
export function scopeOfTable(table: string): string | undefined {
  if (!table.startsWith(TABLE_PREFIX)) return undefined;
  const scope = table.slice(TABLE_PREFIX.length).replace(/_/g, '-');
  return PLUGIN_NAME.test(scope) && RESERVED_PLUGIN_NAMES[scope] === undefined ? scope : undefined;
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
