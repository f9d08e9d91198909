// A timer as kept in the config table, made from timer_set's arguments or read back after a restart.
import { randomBytes } from 'node:crypto';
import { formatDuration } from '../../protocol/format';
import { AT_HINT, parseAt } from './at';
import { DURATION_HINT, parseTimerDuration } from './duration';
import type { TimerPolicy } from './policy';

/** One timer, as stored (the `timers` setting is an array of these). */
export interface Timer {
  /** Short id, e.g. `t-3fa9c1`. */
  id: string;
  /** Session of the turn that set it: where its interrupt goes. */
  session: string;
  /** What to remind of. */
  message: string;
  /** When it fires next, ISO 8601 UTC. */
  fires_at: string;
  /** Fires again every this many ms. */
  repeat_ms?: number;
  /** When it was set, ISO 8601 UTC. */
  created_at: string;
}

/** timer_set's arguments. */
export interface TimerSetArgs {
  message?: unknown;
  delay?: unknown;
  at?: unknown;
  repeat?: unknown;
}

/** A timer_set call the plugin refuses, with what to do instead. */
export class TimerArgumentError extends Error {
  override name = 'TimerArgumentError';
}

/** Builds a timer from timer_set's arguments, or throws a TimerArgumentError that says what to change. */
export function createTimer(args: TimerSetArgs, session: string | undefined, now: number, policy: TimerPolicy, taken: (id: string) => boolean): Timer {
  if (!session) throw new TimerArgumentError('timer_set needs the session of the conversation that sets it; it can only be called from a turn');
  const message = typeof args.message === 'string' ? args.message.trim() : '';
  if (message === '') throw new TimerArgumentError('timer_set needs a message: what to remind of');
  const firesAt = resolveFireTime(args, now, policy);
  const timer: Timer = { id: newId(taken), session, message, fires_at: iso(firesAt), created_at: iso(now) };
  if (args.repeat !== undefined && args.repeat !== null && args.repeat !== '') timer.repeat_ms = resolveRepeat(args.repeat, policy);
  return timer;
}

function resolveFireTime(args: TimerSetArgs, now: number, policy: TimerPolicy): number {
  const hasDelay = args.delay !== undefined && args.delay !== null && args.delay !== '';
  const hasAt = args.at !== undefined && args.at !== null && args.at !== '';
  if (hasDelay && hasAt) throw new TimerArgumentError('give either delay or at, not both');
  if (!hasDelay && !hasAt) {
    throw new TimerArgumentError(`give delay (how long from now: ${DURATION_HINT}) or at (when: ${AT_HINT})`);
  }
  if (hasDelay) {
    const ms = parseTimerDuration(args.delay);
    if (ms === null) throw new TimerArgumentError(`delay ${JSON.stringify(args.delay)} is not a duration; ${DURATION_HINT}`);
    if (ms < policy.minDelayMs) throw new TimerArgumentError(`delay must be at least ${formatDuration(policy.minDelayMs)}`);
    if (ms > policy.maxAheadMs) throw new TimerArgumentError(`delay must be at most ${formatDuration(policy.maxAheadMs)}`);
    return now + ms;
  }
  const at = parseAt(args.at);
  if (at === null) throw new TimerArgumentError(`at ${JSON.stringify(args.at)} is not a time; ${AT_HINT}`);
  if (at <= now) throw new TimerArgumentError(`at ${String(args.at)} is in the past (it is now ${iso(now)}); give a later time`);
  if (at - now > policy.maxAheadMs) throw new TimerArgumentError(`at must be within ${formatDuration(policy.maxAheadMs)} from now`);
  return at;
}

function resolveRepeat(repeat: unknown, policy: TimerPolicy): number {
  const ms = parseTimerDuration(repeat);
  if (ms === null) throw new TimerArgumentError(`repeat ${JSON.stringify(repeat)} is not a duration; ${DURATION_HINT}`);
  if (ms < policy.minRepeatMs)
    throw new TimerArgumentError(`repeat must be at least ${formatDuration(policy.minRepeatMs)}: each firing is a turn of the agent`);
  if (ms > policy.maxAheadMs) throw new TimerArgumentError(`repeat must be at most ${formatDuration(policy.maxAheadMs)}`);
  return ms;
}

/** Keeps the well-formed timers of a stored value; answers them and how many entries were dropped. */
export function readStoredTimers(value: unknown): { timers: Timer[]; dropped: number } {
  if (!Array.isArray(value)) return { timers: [], dropped: value === undefined || value === null ? 0 : 1 };
  const timers = value.filter(isStoredTimer);
  return { timers, dropped: value.length - timers.length };
}

function isStoredTimer(value: unknown): value is Timer {
  if (typeof value !== 'object' || value === null) return false;
  const t = value as Record<string, unknown>;
  return (
    typeof t['id'] === 'string' &&
    typeof t['session'] === 'string' &&
    typeof t['message'] === 'string' &&
    typeof t['fires_at'] === 'string' &&
    Number.isFinite(Date.parse(t['fires_at'])) &&
    typeof t['created_at'] === 'string' &&
    (t['repeat_ms'] === undefined || (typeof t['repeat_ms'] === 'number' && t['repeat_ms'] > 0))
  );
}

/** When a timer fires next, in ms since the epoch. */
export function firesAt(timer: Timer): number {
  return Date.parse(timer.fires_at);
}

/** ISO 8601 UTC text of a time. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function newId(taken: (id: string) => boolean): string {
  for (;;) {
    const id = `t-${randomBytes(3).toString('hex')}`;
    if (!taken(id)) return id;
  }
}
