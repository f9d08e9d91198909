import type { MessageConnection } from 'vscode-jsonrpc';
import { ErrorCodes, haError, InputRequest } from '../../protocol';
import type { IOManager } from '../io/io-manager';
import type { PluginSupervisor } from '../supervisor/plugin-supervisor';
import { requirePermission } from './permissions';

const MAX_TEXT_CHARS = 100_000;

/** io/input: a person's message, queued for the agent (needs `io`). Interrupts are taken off the wire earlier. */
export function bindIoMethods(connection: MessageConnection, caller: PluginSupervisor, io: IOManager): void {
  connection.onRequest(InputRequest.type, (params) => {
    requirePermission(caller, InputRequest.method, 'io');
    const problem = checkInput(params);
    if (problem) throw haError(ErrorCodes.InvalidValue, `io/input refused: ${problem}`, { plugin: caller.name, method: InputRequest.method });
    const { position } = io.submitInput({ source: caller.name, session: params.session, text: params.text, inputId: params.inputId });
    return { accepted: true as const, position };
  });
}

function checkInput(params: { session?: unknown; text?: unknown; inputId?: unknown }): string | undefined {
  if (typeof params.session !== 'string' || params.session.length === 0 || params.session.length > 200) return 'session must be a string of 1–200 characters';
  if (typeof params.text !== 'string' || params.text.trim() === '') return 'text must be a non-empty string';
  if (params.text.length > MAX_TEXT_CHARS) return `text is ${params.text.length} characters; the most is ${MAX_TEXT_CHARS}`;
  if (typeof params.inputId !== 'string' || params.inputId.length === 0 || params.inputId.length > 200) return 'inputId must be a string of 1–200 characters';
  return undefined;
}
