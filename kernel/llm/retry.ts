import type { IncomingHttpHeaders } from 'node:http';
import { LlmAbortError } from './errors';

/**
 * How one provider is retried before the next one is tried, and when a wait is worth a notice to the person;
 * defaults here, overridable from config and, for tests, HOMEAGENT_LLM_RETRY. (The per-provider limits on one
 * attempt, `llm.provider.<name>.timeout` and `.deadline`, are provider settings.)
 */
export interface RetryPolicy {
  /** Attempts per provider, the first included. */
  attempts: number;
  /** Wait before the first retry. */
  baseMs: number;
  factor: number;
  /** Longest wait between two attempts. */
  maxMs: number;
  /** ± share of randomness on each wait, so many clients do not retry in step. */
  jitter: number;
  /** Longest retry-after the kernel waits for; a provider asking for more is failed over at once. */
  maxRetryAfterMs: number;
  /** A wait for the model's first token longer than this is told to the person (once per attempt). */
  firstTokenNoticeMs: number;
}

// OpenAI's and Anthropic's SDKs retry twice with 0.5–8 s backoff; a person is waiting on the answer,
// so three attempts, 1 s doubling, and no wait over 30 s before moving to the next provider. Hosted models
// usually start answering within a second or two; after 5 s of silence the person hears why nothing shows.
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  attempts: 3,
  baseMs: 1000,
  factor: 2,
  maxMs: 20_000,
  jitter: 0.2,
  maxRetryAfterMs: 30_000,
  firstTokenNoticeMs: 5000,
};

/** Tells whether an HTTP status is worth retrying: 408, 409, 429 and every 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Reads how long a provider asked to wait: `retry-after-ms`, else `retry-after` in seconds or as an HTTP date; undefined if neither. */
export function parseRetryAfter(headers: IncomingHttpHeaders, now: number = Date.now()): number | undefined {
  const ms = single(headers['retry-after-ms']);
  if (ms !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.round(Number(ms));
  const value = single(headers['retry-after'])?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The wait before retry number `retry` (1 for the first retry), with jitter; a retry-after, when given, is used as is. */
export function retryDelay(policy: RetryPolicy, retry: number, retryAfterMs: number | undefined, random: () => number = Math.random): number {
  if (retryAfterMs !== undefined) return retryAfterMs;
  const base = Math.min(policy.maxMs, policy.baseMs * policy.factor ** (retry - 1));
  return Math.max(0, Math.round(base * (1 + policy.jitter * (2 * random() - 1))));
}

/** Waits `ms`, or rejects with LlmAbortError as soon as the signal aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined, provider: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new LlmAbortError(provider, undefined, signal.reason));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new LlmAbortError(provider, undefined, signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The policy from config, then the JSON in HOMEAGENT_LLM_RETRY (for tests) on top. */
export function loadRetryPolicy(read: (key: string) => unknown, env: NodeJS.ProcessEnv = process.env): RetryPolicy {
  const num = (key: string, fallback: number): number => {
    const value = read(key);
    return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
  };
  const d = DEFAULT_RETRY_POLICY;
  const policy: RetryPolicy = {
    attempts: num('llm.retry.attempts', d.attempts),
    baseMs: num('llm.retry.base_delay', d.baseMs),
    factor: d.factor,
    maxMs: num('llm.retry.max_delay', d.maxMs),
    jitter: d.jitter,
    maxRetryAfterMs: num('llm.retry.max_retry_after', d.maxRetryAfterMs),
    firstTokenNoticeMs: d.firstTokenNoticeMs,
  };
  const override = env['HOMEAGENT_LLM_RETRY'];
  if (override) {
    try {
      const parsed = JSON.parse(override) as Partial<RetryPolicy>;
      for (const key of Object.keys(policy) as (keyof RetryPolicy)[]) {
        const value = parsed[key];
        if (typeof value === 'number' && Number.isFinite(value)) policy[key] = value;
      }
    } catch {
      // A malformed override is ignored: the configured policy stays.
    }
  }
  return policy;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
