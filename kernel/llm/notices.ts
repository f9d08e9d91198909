// The lines a person reads while a request waits or retries (StreamHooks.onNotice), and the wording of waits.
import { formatDuration } from '../../protocol/format';
import type { LlmError } from './errors';
import type { StreamHooks } from './types';

/** Longest excerpt of a provider's error in a notice; the whole message goes to the log and to the final error. */
const EXCERPT_CHARS = 200;

/** Passes a notice to the caller; a listener that throws does not end the request (it may run from a timer). */
export function tellPerson(hooks: StreamHooks, text: string): void {
  if (hooks.onNotice === undefined) return;
  try {
    hooks.onNotice(text);
  } catch {
    // The request goes on: a notice is a courtesy, not part of the answer.
  }
}

/** `LLM provider "p" answered HTTP 503 (…): … — trying again in 2 s (attempt 2 of 3)`. */
export function retryNotice(error: LlmError, nextAttempt: number, attempts: number, waitMs: number): string {
  return `${excerpt(error.message)}; trying again in ${formatDuration(waitMs)} (attempt ${nextAttempt} of ${attempts})`;
}

/** `LLM provider "p" failed (…); asking LLM provider "backup" instead`. */
export function failoverNotice(error: LlmError, next: string): string {
  return `${excerpt(error.message)}; asking LLM provider "${next}" instead`;
}

/** The facts of a slow start, for its notice. */
export interface SlowStartFacts {
  provider: string;
  waitedMs: number;
  headers: boolean;
  attempt: number;
  attempts: number;
  /** Which limit ends the wait first: the no-progress `timeout`, or the whole attempt's `deadline` when that is sooner. */
  endsBy: 'timeout' | 'deadline';
  timeoutMs: number;
  deadlineMs: number;
}

/** What the person hears when the model has not started answering after `waitedMs`; it names the limit that will end the wait. */
export function firstTokenNotice(facts: SlowStartFacts): string {
  const where = facts.headers ? 'it has the request and has not started answering' : 'it has not replied to the request yet';
  const attempt = facts.attempts > 1 ? `attempt ${facts.attempt} of ${facts.attempts}; ` : '';
  const limit =
    facts.endsBy === 'deadline'
      ? `gives up ${formatDuration(facts.deadlineMs)} after sending the request (llm.provider.${facts.provider}.deadline)`
      : `gives up after ${formatDuration(facts.timeoutMs)} without progress`;
  return `still waiting for LLM provider "${facts.provider}": ${where} after ${formatDuration(Math.floor(facts.waitedMs))} (${attempt}${limit})`;
}

// The first line of a message, without control characters (a provider's error text reaches a terminal), cut short.
function excerpt(message: string): string {
  const line = (message.split('\n')[0] ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').trim();
  return line.length > EXCERPT_CHARS ? `${line.slice(0, EXCERPT_CHARS - 1)}…` : line;
}
