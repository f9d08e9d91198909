// Lines in the kernel's log for what a person changed through a front end (homectl, the web page): installs, removals,
// starts and stops, settings. `by` names the plugin that carried the request (cli, webui, pluginmgr).
import type { Logger } from 'pino';
import type { ConfigEntry } from '../../protocol';
import type { SdkCaller } from './binder';

/** Longest setting value written into the log; a longer one is described by its size. */
const MAX_LOGGED_VALUE_CHARS = 200;

/** Logs one change at info, with who asked. */
export function audit(log: Logger, caller: SdkCaller, fields: Record<string, unknown>, msg: string): void {
  log.info({ by: caller.name, ...fields }, msg);
}

/** A setting's new value as the log may show it: never a password, never a long blob. */
export function loggedValue(entry: ConfigEntry): unknown {
  if (entry.def?.type === 'password') return entry.isSet ? '(password set)' : '(password cleared)';
  const text = JSON.stringify(entry.value) ?? 'null';
  return text.length <= MAX_LOGGED_VALUE_CHARS ? entry.value : `(${text.length} characters)`;
}
