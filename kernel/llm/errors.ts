import type { LlmResult } from './types';

/** What went wrong with an LLM request, as one word a program can branch on. */
export type LlmErrorKind =
  /** No provider, or a provider's settings are missing or wrong. */
  | 'config'
  /** The Lua adapter failed (syntax, runtime, or it returned something unusable). */
  | 'adapter'
  /** The provider answered with an HTTP error status. */
  | 'http'
  /** The provider could not be reached, or the connection broke. */
  | 'network'
  /** The provider sent no part of an answer for longer than its timeout (`stall` says how far it got). */
  | 'timeout'
  /** The attempt went on past the provider's whole-request deadline. */
  | 'deadline'
  /** The stream ended before the provider said it had finished. */
  | 'stream'
  /** The provider reported an error inside a stream that had started fine. */
  | 'provider'
  /** Every provider in the chain failed. */
  | 'exhausted';

/** For kind `timeout`: how far the request had got when the provider's timeout ran out. */
export type LlmStall =
  /** No connection to the provider could be made. */
  | 'connect'
  /** Connected and sent, but no response headers came back. */
  | 'headers'
  /** Headers came, then nothing of the answer (at most keep-alive comments, empty chunks or pings). */
  | 'first-token'
  /** Part of the answer came, then no more of it. */
  | 'answer';

/** The facts an LlmError carries. */
export interface LlmErrorFacts {
  kind: LlmErrorKind;
  /** Provider the error concerns. */
  provider?: string;
  /** HTTP status, for kind `http`. */
  status?: number;
  /** The provider's own error code or type (`insufficient_quota`, `overloaded_error` …). */
  code?: string;
  /** Whether trying the same provider again may succeed. */
  retryable?: boolean;
  /** How long the provider asked to wait before a retry (retry-after), in ms. */
  retryAfterMs?: number;
  /** Whether text had reached the caller (onText) before the failure. */
  streamed?: boolean;
  /** What had arrived before the failure. */
  partial?: LlmResult;
  /** For kind `timeout`: how far the request had got. */
  stall?: LlmStall;
  /** For kinds `timeout` and `deadline`: how long the attempt waited, in ms. */
  waitedMs?: number;
  /** Each provider's failure, for kind `exhausted`. */
  failures?: LlmError[];
  cause?: unknown;
}

/** A failed LLM request, with the facts a person (and the failover logic) needs. */
export class LlmError extends Error {
  override readonly name = 'LlmError';
  readonly kind: LlmErrorKind;
  readonly provider: string | undefined;
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly failures: LlmError[];
  /** For kind `timeout`: how far the request had got. */
  readonly stall: LlmStall | undefined;
  /** For kinds `timeout` and `deadline`: how long the attempt waited, in ms. */
  readonly waitedMs: number | undefined;
  retryable: boolean;
  streamed: boolean;
  /** Attempts made on this provider before giving up. */
  attempts = 1;
  partial: LlmResult | undefined;

  constructor(message: string, facts: LlmErrorFacts) {
    super(message, facts.cause === undefined ? undefined : { cause: facts.cause });
    this.kind = facts.kind;
    this.provider = facts.provider;
    this.status = facts.status;
    this.code = facts.code;
    this.retryable = facts.retryable ?? false;
    this.retryAfterMs = facts.retryAfterMs;
    this.streamed = facts.streamed ?? false;
    this.partial = facts.partial;
    this.failures = facts.failures ?? [];
    this.stall = facts.stall;
    this.waitedMs = facts.waitedMs;
  }
}

/** The request was aborted through its signal; the connection to the provider is closed. */
export class LlmAbortError extends Error {
  override readonly name = 'AbortError';

  constructor(
    readonly provider: string | undefined,
    /** What had arrived before the abort. */
    readonly partial?: LlmResult,
    cause?: unknown,
  ) {
    super(
      provider === undefined ? 'the LLM request was aborted' : `the request to LLM provider "${provider}" was aborted`,
      cause === undefined ? undefined : { cause },
    );
  }
}

/** Tells whether an error is an abort (ours, or the platform's AbortError). */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** The error when no provider is configured: it lists the commands that configure one. */
export function noProviderError(lead = 'no LLM provider is configured'): LlmError {
  return new LlmError(
    `${lead}. Set one up with:\n` +
      '  homectl config set llm.default work\n' +
      '  homectl config set llm.provider.work.adapter openai\n' +
      '  homectl config set llm.provider.work.base_url https://api.openai.com/v1\n' +
      '  homectl config set llm.provider.work.model gpt-4o-mini\n' +
      '  homectl config set llm.provider.work.api_key sk-...\n' +
      '(adapter: openai for any OpenAI-compatible server, anthropic, ollama, or the path of a .lua adapter; ' +
      'or start homed once with HOMEAGENT_LLM_ADAPTER, HOMEAGENT_LLM_BASE_URL, HOMEAGENT_LLM_MODEL and HOMEAGENT_LLM_API_KEY set)',
    { kind: 'config' },
  );
}
