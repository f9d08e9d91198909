import type { Logger } from 'pino';
import type { MessageConnection } from 'vscode-jsonrpc';
import {
  ConfigGetRequest,
  ConfigListRequest,
  ConfigSetRequest,
  ConfigUnsetRequest,
  type ConfigEntry,
  type ConfigOwnerParams,
  type ConfigScopeParams,
} from '../../protocol';
import { ConfigError, fitForListing, maskEntry, type ConfigRegistry, type ConfigWriter } from '../config';
import { audit, loggedValue } from './audit';
import { bindRequest, demandPermission, type SdkCaller } from './binder';

/**
 * config/get|set|unset|list. A plugin reads and writes its own table freely; another plugin's table needs
 * `config.others` or `admin`; the core table needs `admin` to write and `config.others` or `admin` to read
 * (the descriptors in protocol/config.ts say so; the binder checks it).
 * Passwords are masked in every answer but one: a `config/get` that names no scope, which is a plugin
 * reading its own setting for its own use (an API key). A plugin relaying settings to people (cli, for
 * homectl) always names the scope, so it never receives a secret in clear, its own table included.
 * A list answer leaves out values too big to list (`omittedBytes` gives their size), so it always fits the wire.
 * Writing with no scope named is the owner writing its own table (its undeclared keys too); naming a scope,
 * its own included, is writing for people: only declared keys that are not read-only (see ConfigWriter), and a
 * guarded key only when the call carries `owner` and the caller holds `config.guarded` (the cli plugin, for homectl):
 * the page, a bridge or another plugin cannot widen what the agent may do, whatever else it was granted.
 */
export function bindConfigMethods(connection: MessageConnection, caller: SdkCaller, config: ConfigRegistry, log: Logger): void {
  // Guarded settings change only on a call the caller vouches is the machine owner's (`owner`), which needs `config.guarded`.
  const writerOf = (params: ConfigScopeParams & ConfigOwnerParams, method: string): ConfigWriter => {
    if (params.scope === undefined) return 'owner';
    if (params.owner !== true) return 'other';
    demandPermission(caller, `${method} for the machine's owner`, ['config.guarded']);
    return 'machine-owner';
  };
  const reveal = (entry: ConfigEntry, key: string): ConfigEntry => (entry.isSet ? { ...entry, value: config.getValue(caller.name, key) } : entry);

  bindRequest(connection, caller, ConfigGetRequest, (params) =>
    wrapConfigErrors(() => {
      const entry = config.get(params.scope ?? caller.name, params.key);
      return { entry: params.scope === undefined ? reveal(entry, params.key) : entry };
    }),
  );
  bindRequest(connection, caller, ConfigSetRequest, (params) =>
    wrapConfigErrors(() => {
      const entry = config.set(params.scope ?? caller.name, params.key, params.value, writerOf(params, ConfigSetRequest.method));
      // Written for people (a named scope): logged with who asked; a plugin keeping its own state is not.
      if (params.scope !== undefined)
        audit(log, caller, { scope: entry.scope, key: entry.key, value: loggedValue(entry) }, `setting ${entry.scope}:${entry.key} changed`);
      return { entry: maskEntry(entry) };
    }),
  );
  bindRequest(connection, caller, ConfigUnsetRequest, (params) =>
    wrapConfigErrors(() => {
      const scope = params.scope ?? caller.name;
      const wasSet = config.get(scope, params.key).isSet;
      const entry = config.unset(scope, params.key, writerOf(params, ConfigUnsetRequest.method));
      if (params.scope !== undefined && wasSet) audit(log, caller, { scope, key: params.key }, `setting ${scope}:${params.key} returned to its default`);
      return { entry: maskEntry(entry), removed: wasSet };
    }),
  );
  bindRequest(connection, caller, ConfigListRequest, (params) =>
    wrapConfigErrors(() => {
      if (params.all) return { entries: fitForListing(config.scopes().flatMap((scope) => config.list(scope))) };
      return { entries: fitForListing(config.list(params.scope ?? caller.name)) };
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
