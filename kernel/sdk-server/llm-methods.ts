import type { MessageConnection } from 'vscode-jsonrpc';
import { ErrorCodes, haError, LlmCompleteRequest } from '../../protocol';
import { LlmError } from '../llm/errors';
import type { LlmRequest, LlmResult, StreamHooks } from '../llm/types';
import { bindRequest, type SdkCaller } from './binder';

/** What llm/complete runs on: the kernel's providers. */
export interface LlmService {
  complete(request: LlmRequest, hooks: StreamHooks & { provider?: string }): Promise<LlmResult>;
}

/** llm/complete: one completion through the kernel's providers, without tools (needs `llm`); cancelling the call aborts it. */
export function bindLlmMethods(connection: MessageConnection, caller: SdkCaller, llm: () => LlmService | undefined): void {
  bindRequest(connection, caller, LlmCompleteRequest, async (params, token) => {
    const service = llm();
    if (!service) throw haError(ErrorCodes.LlmUnavailable, 'the kernel has no LLM provider to answer with; see homectl config list --all for llm.*');
    const abort = new AbortController();
    const stop = token.onCancellationRequested(() => abort.abort());
    try {
      const request: LlmRequest = { messages: params.messages.map(({ role, content }) => ({ role, content })), tools: [] };
      if (params.maxTokens !== undefined) request.maxTokens = params.maxTokens;
      const hooks: StreamHooks & { provider?: string } = { signal: abort.signal };
      if (params.provider !== undefined) hooks.provider = params.provider;
      const result = await service.complete(request, hooks);
      return { text: result.text, finishReason: result.finishReason };
    } catch (error) {
      // Its kind (config, network, http, timeout…) tells the caller what sort of fix it needs.
      if (error instanceof LlmError) throw haError(ErrorCodes.LlmUnavailable, error.message, { plugin: caller.name, kind: error.kind });
      throw error;
    } finally {
      stop.dispose();
    }
  });
}
