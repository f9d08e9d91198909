import type { MessageConnection } from 'vscode-jsonrpc';
import { InputRequest, MissedTakeRequest, OutputUndeliveredNotification } from '../../protocol';
import type { MissedOutputs } from '../agent/missed-outputs';
import type { IOManager } from '../io/io-manager';
import { bindNotification, bindRequest, type SdkCaller } from './binder';

/**
 * io/input: a person's message, queued for the agent (needs `io`). Interrupts are taken off the wire earlier.
 * io/undelivered and io/missed: an answer no client of the plugin received is kept for the session's next client,
 * and taken by the plugin that serves it.
 */
export function bindIoMethods(connection: MessageConnection, caller: SdkCaller, io: IOManager, missed: MissedOutputs): void {
  bindNotification(connection, caller, OutputUndeliveredNotification, (output) => {
    try {
      missed.keep(output);
    } catch (error) {
      caller.note('warn', `an answer for session ${output.session} that no client received could not be kept: ${(error as Error).message}`);
    }
  });
  bindRequest(connection, caller, MissedTakeRequest, (params) => ({ missed: missed.take(params.session) }));
  bindRequest(connection, caller, InputRequest, (params) => {
    const { position } = io.submitInput({ source: caller.name, session: params.session, text: params.text, inputId: params.inputId });
    return { accepted: true as const, position };
  });
}
