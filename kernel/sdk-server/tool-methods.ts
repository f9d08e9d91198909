import type { MessageConnection } from 'vscode-jsonrpc';
import { ToolProgressNotification } from '../../protocol';
import type { InFlightToolCalls } from '../agent/tool-calls';
import { bindNotification, type SdkCaller } from './binder';

/** tool/progress (needs `tools`): a piece of one of the caller's running calls; for a call it does not run now, dropped. */
export function bindToolMethods(connection: MessageConnection, caller: SdkCaller, calls: InFlightToolCalls): void {
  bindNotification(connection, caller, ToolProgressNotification, (params) => {
    calls.progress(caller.name, params.callId, params.text);
  });
}
