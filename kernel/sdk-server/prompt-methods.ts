import type { MessageConnection } from 'vscode-jsonrpc';
import { estimateTokens, PromptBlockRequest } from '../../protocol';
import type { Supervisor } from '../supervisor/supervisor';
import { bindRequest, type SdkCaller } from './binder';

/**
 * prompt/block (needs `prompt`): sets the caller's block in the system prompt of later turns, replacing its last
 * one; a text that is empty (or only white space) removes it. Answers what the block now counts for.
 */
export function bindPromptMethods(connection: MessageConnection, caller: SdkCaller, supervisor: Supervisor): void {
  bindRequest(connection, caller, PromptBlockRequest, (params) => {
    const text = params.text.trim();
    supervisor.get(caller.name).promptBlock = text;
    return { chars: text.length, tokens: estimateTokens(text) };
  });
}
