// approvals/ask for a guard plugin (needs `ask`); approvals/answer and approvals/pending for the client protocol
// servers (admin), which answer on behalf of their clients.
import type { MessageConnection } from 'vscode-jsonrpc';
import { AnswerRequest, AskRequest, PendingRequest } from '../../protocol';
import type { AskRegistry } from '../io/asks';
import { bindRequest, type SdkCaller } from './binder';
import { abortSignalOf } from './client-methods';

/** Binds the three approval methods over the kernel's registry of questions. */
export function bindApprovalMethods(connection: MessageConnection, caller: SdkCaller, asks: AskRegistry): void {
  bindRequest(connection, caller, AskRequest, (params, token) => asks.ask(caller.name, params, abortSignalOf(token)));
  bindRequest(connection, caller, AnswerRequest, (params) => ({
    answered: asks.answer(params.id, params.choice, caller.name, {
      owner: params.owner === true,
      ...(params.unasked === undefined ? {} : { unasked: params.unasked }),
    }),
  }));
  bindRequest(connection, caller, PendingRequest, (params) => ({ pending: asks.list(params.session) }));
}
