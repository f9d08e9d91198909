import type { MessageConnection } from 'vscode-jsonrpc';
import { ConfigGetRequest, ConfigListRequest, ConfigSetRequest, type ConfigEntry } from '../../protocol';
import { ConfigError, CORE_SCOPE, maskEntry, type ConfigRegistry } from '../config';
import type { PluginSupervisor } from '../supervisor/plugin-supervisor';
import { requirePermission } from './permissions';

/**
 * config/get|set|list. A plugin reads and writes its own table freely (and sees its own secrets);
 * another plugin's table needs `config.others` or `admin`; the core table needs `admin` to write
 * and `config.others` or `admin` to read. Passwords of other tables are always masked.
 */
export function bindConfigMethods(connection: MessageConnection, caller: PluginSupervisor, config: ConfigRegistry): void {
  const scopeFor = (method: string, requested: string | undefined, write: boolean): string => {
    const scope = requested ?? caller.name;
    if (scope === caller.name) return scope;
    if (scope === CORE_SCOPE && write) requirePermission(caller, method, 'admin');
    else requirePermission(caller, method, 'config.others', 'admin');
    return scope;
  };
  const reveal = (scope: string, entry: ConfigEntry, key: string): ConfigEntry =>
    scope === caller.name && entry.isSet ? { ...entry, value: config.getValue(scope, key) } : entry;

  connection.onRequest(ConfigGetRequest.type, (params) =>
    wrapConfigErrors(() => {
      const scope = scopeFor(ConfigGetRequest.method, params.scope, false);
      return { entry: reveal(scope, config.get(scope, params.key), params.key) };
    }),
  );
  connection.onRequest(ConfigSetRequest.type, (params) =>
    wrapConfigErrors(() => {
      const scope = scopeFor(ConfigSetRequest.method, params.scope, true);
      return { entry: maskEntry(config.set(scope, params.key, params.value)) };
    }),
  );
  connection.onRequest(ConfigListRequest.type, (params) =>
    wrapConfigErrors(() => {
      if (params.all) {
        requirePermission(caller, ConfigListRequest.method, 'admin');
        return { entries: config.scopes().flatMap((scope) => config.list(scope)) };
      }
      const scope = scopeFor(ConfigListRequest.method, params.scope, false);
      return { entries: config.list(scope) };
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
