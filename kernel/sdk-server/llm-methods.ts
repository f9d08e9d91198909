import type { MessageConnection } from 'vscode-jsonrpc';
import { ErrorCodes, haError, LlmCompleteRequest, type ContextMessage } from '../../protocol';
import { LlmError } from '../llm/errors';
import type { LlmRequest, LlmResult, StreamHooks } from '../llm/types';
import type { PluginSupervisor } from '../supervisor/plugin-supervisor';
import { requirePermission } from './permissions';

/** What llm/complete runs on: the kernel's providers. */
export interface LlmService {
  complete(request: LlmRequest, hooks: StreamHooks & { provider?: string }): Promise<LlmResult>;
}

const MAX_MESSAGES = 200;
const MAX_CHARS = 400_000;
const ROLES = new Set(['system', 'user', 'assistant']);

/** llm/complete: one completion through the kernel's providers, without tools (needs `llm`); cancelling the call aborts it. */
export function bindLlmMethods(connection: MessageConnection, caller: PluginSupervisor, llm: () => LlmService | undefined): void {
  connection.onRequest(LlmCompleteRequest.type, async (params, token) => {
    requirePermission(caller, LlmCompleteRequest.method, 'llm');
    const messages = checkMessages(params?.messages);
    const service = llm();
    if (!service) throw haError(ErrorCodes.LlmUnavailable, 'the kernel has no LLM provider to answer with; see homectl config list --all for llm.*');
    const abort = new AbortController();
    const stop = token.onCancellationRequested(() => abort.abort());
    try {
      const request: LlmRequest = { messages, tools: [] };
      if (typeof params.maxTokens === 'number' && params.maxTokens > 0) request.maxTokens = Math.floor(params.maxTokens);
      const hooks: StreamHooks & { provider?: string } = { signal: abort.signal };
      if (typeof params.provider === 'string' && params.provider !== '') hooks.provider = params.provider;
      const result = await service.complete(request, hooks);
      return { text: result.text, finishReason: result.finishReason };
    } catch (error) {
      if (error instanceof LlmError) throw haError(ErrorCodes.LlmUnavailable, error.message, { plugin: caller.name });
      throw error;
    } finally {
      stop.dispose();
    }
  });
}

function checkMessages(value: unknown): { role: 'system' | 'user' | 'assistant'; content: string }[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_MESSAGES) {
    throw haError(ErrorCodes.InvalidValue, `llm/complete needs "messages", a list of 1–${MAX_MESSAGES} {role, content}`);
  }
  let chars = 0;
  return value.map((m: Partial<ContextMessage>, i) => {
    if (!m || typeof m.content !== 'string' || !ROLES.has(String(m.role))) {
      throw haError(ErrorCodes.InvalidValue, `llm/complete: message ${i} needs a role of system, user or assistant and a text content`);
    }
    chars += m.content.length;
    if (chars > MAX_CHARS) throw haError(ErrorCodes.InvalidValue, `llm/complete: the messages hold more than ${MAX_CHARS} characters`);
    return { role: m.role as 'system' | 'user' | 'assistant', content: m.content };
  });
}
