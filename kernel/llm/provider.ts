import type { AdapterProvider, LuaAdapter, WireRequest } from './adapter';
import { runAttempt } from './attempt';
import { LlmAbortError, LlmError } from './errors';
import { LuaScriptError } from './lua/vm';
import { PreparedRequest } from './prepared';
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
  /** Idle timeout: longest time with nothing arriving. */
  timeoutMs: number;
}

/** Hears each retry (for the log). */
export type RetryListener = (facts: { provider: string; attempt: number; waitMs: number; error: LlmError }) => void;

/** A provider driven by a Lua adapter, retried with backoff while nothing has reached the caller. */
export class LuaProvider implements LlmProvider {
  private prepared: PreparedRequest | undefined;

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
    try {
      this.prepared = new PreparedRequest(req, this.buildWireRequest(req));
    } catch {
      this.prepared = undefined; // the call itself reports the error
    }
  }

  /** Answers a request; retries 408/409/429/5xx, network errors and timeouts until the policy's attempts run out. */
  async complete(req: LlmRequest, hooks: StreamHooks): Promise<LlmResult> {
    const prepared = this.prepared;
    this.prepared = undefined;
    const wire = prepared?.matches(req) ? prepared.wire : this.buildWireRequest(req);
    for (let attempt = 1; ; attempt++) {
      if (hooks.signal?.aborted) throw new LlmAbortError(this.name, undefined, hooks.signal.reason);
      try {
        return await runAttempt({ provider: this.name, model: this.settings.model, adapter: this.adapter, wire, idleTimeoutMs: this.settings.timeoutMs, hooks });
      } catch (error) {
        if (!(error instanceof LlmError)) throw error;
        error.attempts = attempt;
        const waitMs = this.retryWait(error, attempt);
        if (waitMs === undefined) throw error;
        this.onRetry?.({ provider: this.name, attempt, waitMs, error });
        await sleep(waitMs, hooks.signal, this.name);
      }
    }
  }

  // How long to wait before trying again, or undefined to give up (and say why in the message).
  private retryWait(error: LlmError, attempt: number): number | undefined {
    if (!error.retryable) return undefined;
    if (error.streamed) {
      error.message += '; not retried, because part of the answer had already been shown';
      return undefined;
    }
    if (attempt >= this.policy.attempts) {
      if (attempt > 1) error.message += ` (gave up after ${attempt} attempts)`;
      return undefined;
    }
    if (error.retryAfterMs !== undefined && error.retryAfterMs > this.policy.maxRetryAfterMs) {
      error.message += `; it asked to wait ${Math.ceil(error.retryAfterMs / 1000)} s, longer than llm.retry.max_retry_after (${Math.round(this.policy.maxRetryAfterMs / 1000)} s)`;
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
