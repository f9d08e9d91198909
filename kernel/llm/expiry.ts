// The error of an attempt that ran out of time: which provider, how far it got, how long it waited, what to do.
import { formatDuration, formatDurationExact } from '../../protocol/format';
import type { WatchExpiry } from './attempt-watch';
import { LlmError } from './errors';
import type { LlmResult } from './types';

/** What the error needs to know about the attempt besides its expiry. */
export interface ExpiryFacts {
  provider: string;
  url: string;
  idleMs: number;
  deadlineMs: number;
  /** Whether text had reached the caller. */
  streamed: boolean;
  partial: LlmResult;
}

/**
 * A `timeout` error (retryable: the provider may answer the next time) or a `deadline` error (not retried:
 * the next attempt would take as long; the next provider is tried instead).
 */
export function expiryError(expiry: WatchExpiry, facts: ExpiryFacts): LlmError {
  const common = { provider: facts.provider, streamed: facts.streamed, partial: facts.partial, waitedMs: Math.round(expiry.elapsedMs) };
  if (expiry.limit === 'deadline') {
    const key = `llm.provider.${facts.provider}.deadline`;
    return new LlmError(
      `LLM provider "${facts.provider}" did not finish its answer within ${formatDuration(facts.deadlineMs)} (${key}); ${describeProgress(expiry, facts.partial)}; ` +
        `for longer answers allow it more time: homectl config set ${key} ${formatDurationExact(facts.deadlineMs * 2)}`,
      { kind: 'deadline', retryable: false, ...common },
    );
  }
  const key = `llm.provider.${facts.provider}.timeout`;
  const waited = formatDuration(facts.idleMs);
  const remedy = `if it is only slow, allow it more time: homectl config set ${key} ${formatDurationExact(facts.idleMs * 2)}`;
  return new LlmError(
    `${describeStall(expiry, facts, waited, key)}; ${expiry.stall === 'connect' ? `check llm.provider.${facts.provider}.base_url and that the server is up, or ${remedy}` : remedy}`,
    {
      kind: 'timeout',
      retryable: true,
      stall: expiry.stall,
      ...common,
    },
  );
}

function describeProgress(expiry: WatchExpiry, partial: LlmResult): string {
  switch (expiry.stall) {
    case 'connect':
      return 'no connection had been made';
    case 'headers':
      return 'it had sent no response headers';
    case 'first-token':
      return 'no part of the answer had come';
    case 'answer':
      return partial.text.length > 0 ? `${partial.text.length} characters of it had arrived` : 'part of it had arrived';
  }
}

function describeStall(expiry: WatchExpiry, facts: ExpiryFacts, waited: string, key: string): string {
  const who = `LLM provider "${facts.provider}"`;
  const keepAlives = `only keep-alives (${expiry.idleBytes} bytes of comments, empty chunks or pings)`;
  switch (expiry.stall) {
    case 'connect':
      return `${who} could not be reached at ${facts.url}: no connection within ${waited} (${key})`;
    case 'headers':
      return `${who} sent no response headers within ${waited} (${key}): it took the request but did not answer`;
    case 'first-token':
      return expiry.idleBytes > 0
        ? `${who} sent ${keepAlives} and no part of an answer for ${waited} (${key})`
        : `${who} sent its response headers, then nothing for ${waited} (${key})`;
    case 'answer':
      return `${who} stopped in the middle of its answer: ${expiry.idleBytes > 0 ? keepAlives : 'nothing'} for ${waited} (${key})`;
  }
}
