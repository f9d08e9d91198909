import type { MessageConnection } from 'vscode-jsonrpc';
import { ConfigGetRequest, ConfigListRequest, ConfigSetRequest, ConfigUnsetRequest, type ConfigEntry } from '../../protocol';
import { ConfigError, CORE_SCOPE, fitForListing, maskEntry, type ConfigRegistry, type ConfigWriter } from '../config';
import type { PluginSupervisor } from '../supervisor/plugin-supervisor';
import { requirePermission } from './permissions';

/**
 * config/get|set|unset|list. A plugin reads and writes its own table freely; another plugin's table needs
 * `config.others` or `admin`; the core table needs `admin` to write and `config.others` or `admin` to read.
 * Passwords are masked in every answer but one: a `config/get` that names no scope, which is a plugin
 * reading its own setting for its own use (an API key). A plugin relaying settings to people (cli, for
 * homectl) always names the scope, so it never receives a secret in clear, its own table included.
 * A list answer leaves out values too big to list (`omittedBytes` gives their size), so it always fits the wire.
 * Writing with no scope named is the owner writing its own table (its undeclared keys too); naming a scope,
 * its own included, is writing for people: only declared keys that are not read-only (see ConfigWriter).
 */
export function bindConfigMethods(connection: MessageConnection, caller: PluginSupervisor, config: ConfigRegistry): void {
  const scopeFor = (method: string, requested: string | undefined, write: boolean): string => {
    const scope = requested ?? caller.name;
    if (scope === caller.name) return scope;
    if (scope === CORE_SCOPE && write) requirePermission(caller, method, 'admin');
    else requirePermission(caller, method, 'config.others', 'admin');
    return scope;
  };
  const writerOf = (requested: string | undefined): ConfigWriter => (requested === undefined ? 'owner' : 'other');
  const reveal = (entry: ConfigEntry, key: string): ConfigEntry => (entry.isSet ? { ...entry, value: config.getValue(caller.name, key) } : entry);

  connection.onRequest(ConfigGetRequest.type, (params) =>
    wrapConfigErrors(() => {
      const scope = scopeFor(ConfigGetRequest.method, params.scope, false);
      const entry = config.get(scope, params.key);
      return { entry: params.scope === undefined ? reveal(entry, params.key) : entry };
    }),
  );
  connection.onRequest(ConfigSetRequest.type, (params) =>
    wrapConfigErrors(() => {
      const scope = scopeFor(ConfigSetRequest.method, params.scope, true);
      return { entry: maskEntry(config.set(scope, params.key, params.value, writerOf(params.scope))) };
    }),
  );
  connection.onRequest(ConfigUnsetRequest.type, (params) =>
    wrapConfigErrors(() => {
      const scope = scopeFor(ConfigUnsetRequest.method, params.scope, true);
      const wasSet = config.get(scope, params.key).isSet;
      return { entry: maskEntry(config.unset(scope, params.key, writerOf(params.scope))), removed: wasSet };
    }),
  );
  connection.onRequest(ConfigListRequest.type, (params) =>
    wrapConfigErrors(() => {
      if (params.all) {
        requirePermission(caller, ConfigListRequest.method, 'admin');
        return { entries: fitForListing(config.scopes().flatMap((scope) => config.list(scope))) };
      }
      const scope = scopeFor(ConfigListRequest.method, params.scope, false);
      return { entries: fitForListing(config.list(scope)) };
    }),
  );
}

function wrapConfigErrors<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof ConfigError) throw error.toResponseError();
    throw error;
  }
}
