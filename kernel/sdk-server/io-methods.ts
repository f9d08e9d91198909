import type { MessageConnection } from 'vscode-jsonrpc';
import { InputRequest } from '../../protocol';
import type { IOManager } from '../io/io-manager';
import { bindRequest, type SdkCaller } from './binder';

/** io/input: a person's message, queued for the agent (needs `io`). Interrupts are taken off the wire earlier. */
export function bindIoMethods(connection: MessageConnection, caller: SdkCaller, io: IOManager): void {
  bindRequest(connection, caller, InputRequest, (params) => {
    const { position } = io.submitInput({ source: caller.name, session: params.session, text: params.text, inputId: params.inputId });
    return { accepted: true as const, position };
  });
}
