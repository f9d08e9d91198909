import { formatDuration } from '../../protocol/format';
import type { AdapterProvider, LuaAdapter, WireRequest } from './adapter';
import { runAttempt } from './attempt';
import { LlmAbortError, LlmError } from './errors';
import { LuaScriptError } from './lua/vm';
import { retryNotice, tellPerson } from './notices';
import { PreparedRequests } from './prepared';
import { retryDelay, sleep, type RetryPolicy } from './retry';
import type { LlmProvider, LlmRequest, LlmResult, StreamHooks } from './types';

/** One provider's settings, as read from `llm.provider.<name>.*`. */
export interface ProviderSettings {
  name: string;
  /** The `adapter` setting: a name or a path. */
  adapter: string;
  baseUrl?: string;
  model: string;
  apiKey?: string;
  maxTokens?: number;
  /** Most tokens the model takes in at once (`context_window`), when set. */
  contextWindow?: number;
  /** Longest time without progress (no connection, no headers, no part of the answer). */
  timeoutMs: number;
  /** Longest time for one whole attempt. */
  deadlineMs: number;
}

/** Hears each retry (for the log). */
export type RetryListener = (facts: { provider: string; attempt: number; waitMs: number; error: LlmError }) => void;

/**
 * A provider driven by a Lua adapter, retried with backoff while nothing has reached the caller. Requests run
 * concurrently: everything of one request lives in its complete() call (the adapter's per-stream state in its
 * own Lua table), and requests built ahead are matched to their calls by what they ask.
 */
export class LuaProvider implements LlmProvider {
  private readonly prepared = new PreparedRequests();

  constructor(
    private readonly settings: ProviderSettings,
    readonly adapter: LuaAdapter,
    private readonly policy: RetryPolicy,
    private readonly onRetry?: RetryListener,
  ) {}

  get name(): string {
    return this.settings.name;
  }

  /**
   * Builds the wire request for `req` now, for a complete() soon after with the same request (by value and by
   * object); a different request, or one that failed to build, is built again when it is sent.
   */
  prepare(req: LlmRequest): void {
    let wire: WireRequest;
    try {
      wire = this.buildWireRequest(req);
    } catch {
      return; // the call itself reports the error
    }
    this.prepared.add(req, wire);
  }

  /**
   * Answers a request; retries 408/409/429/5xx, network errors and timeouts until the policy's attempts run
   * out, telling the person (hooks.onNotice) of each retry and of a slow first token.
   */
  async complete(req: LlmRequest, hooks: StreamHooks): Promise<LlmResult> {
    const wire = this.prepared.take(req) ?? this.buildWireRequest(req);
    const { timeoutMs, deadlineMs } = this.settings;
    const limits = { idleMs: timeoutMs, deadlineMs, firstTokenNoticeMs: this.policy.firstTokenNoticeMs };
    const startedAt = performance.now();
    for (let attempt = 1; ; attempt++) {
      if (hooks.signal?.aborted) throw new LlmAbortError(this.name, undefined, hooks.signal.reason);
      try {
        return await runAttempt({
          provider: this.name,
          model: this.settings.model,
          adapter: this.adapter,
          wire,
          limits,
          number: attempt,
          of: this.policy.attempts,
          hooks,
        });
      } catch (error) {
        if (!(error instanceof LlmError)) throw error;
        error.attempts = attempt;
        const waitMs = this.retryWait(error, attempt, performance.now() - startedAt);
        if (waitMs === undefined) throw error;
        this.onRetry?.({ provider: this.name, attempt, waitMs, error });
        tellPerson(hooks, retryNotice(error, attempt + 1, this.policy.attempts, waitMs));
        await sleep(waitMs, hooks.signal, this.name);
      }
    }
  }

  // How long to wait before trying again, or undefined to give up (and say why in the message).
  private retryWait(error: LlmError, attempt: number, elapsedMs: number): number | undefined {
    if (!error.retryable) return undefined;
    if (error.streamed) {
      error.message += '; not retried, because part of the answer had already been shown';
      return undefined;
    }
    if (attempt >= this.policy.attempts) {
      if (attempt > 1) error.message += ` (gave up after ${attempt} attempts in ${formatDuration(elapsedMs)})`;
      return undefined;
    }
    if (error.retryAfterMs !== undefined && error.retryAfterMs > this.policy.maxRetryAfterMs) {
      error.message += `; it asked to wait ${formatDuration(error.retryAfterMs)}, longer than llm.retry.max_retry_after (${formatDuration(this.policy.maxRetryAfterMs)})`;
      return undefined;
    }
    return retryDelay(this.policy, attempt, error.retryAfterMs);
  }

  private buildWireRequest(req: LlmRequest): WireRequest {
    const s = this.settings;
    const provider: AdapterProvider = { name: s.name, model: s.model };
    if (s.baseUrl !== undefined) provider.base_url = s.baseUrl;
    if (s.apiKey !== undefined) provider.api_key = s.apiKey;
    if (s.maxTokens !== undefined) provider.max_tokens = s.maxTokens;
    try {
      return this.adapter.buildRequest(req, provider);
    } catch (error) {
      if (!(error instanceof LuaScriptError)) throw error;
      throw new LlmError(`LLM provider "${this.name}": ${error.message}`, { kind: 'adapter', provider: this.name, cause: error });
    }
  }
}
