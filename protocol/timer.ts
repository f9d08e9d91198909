// The client methods the timer plugin serves (the web page's Timers page reaches them through client/call): the
// same operations as its tools, for clients. timer/set names the conversation its reminder goes to, since no turn sets it.
import { NO_PARAMS, objectSchema, request } from './descriptor';
import { SESSION_FIELD, stringField } from './fields';

/** Events the timer plugin publishes (under its own name), each with a TimerEventData. */
export const TimerEvents = { Set: 'timer.set', Fired: 'timer.fired', Cancelled: 'timer.cancelled' } as const;

/** What a timer event carries: the timer as it was set, fired or cancelled. */
export interface TimerEventData {
  /** Its id. */
  id: string;
  /** What it reminds of. */
  message: string;
  /** The conversation its reminder goes to. */
  session: string;
  /** When it fires next (a repeating timer that fired: its next time), ISO 8601 UTC. */
  fires_at: string;
}

/** A timer as clients see it. */
export interface TimerView {
  /** Short id, e.g. `t-3fa9c1`, for timer/cancel. */
  id: string;
  /** What it reminds of. */
  message: string;
  /** When it fires next, ISO 8601 UTC. */
  fires_at: string;
  /** Time left, e.g. `12 min 5 s` (protocol/format.ts formatDuration). */
  fires_in: string;
  /** Repeat interval, e.g. `1 d`; absent for a timer that fires once. */
  repeat?: string;
  /** The conversation its reminder goes to. */
  session: string;
}

/** `timer/list` → every timer, the next to fire first. */
export interface TimerListResult {
  /** The plugin's clock when it answered, ISO 8601 UTC. */
  now: string;
  timers: TimerView[];
}

/** `timer/set` params: what timer_set takes, plus the conversation the reminder goes to. */
export interface TimerSetParams {
  session: string;
  message: string;
  /** How long from now, e.g. `10m` or ms; exactly one of delay and at. */
  delay?: string | number;
  /** When, ISO 8601 or `HH:MM`. */
  at?: string;
  /** Fire again every this long. */
  repeat?: string | number;
}

/** `timer/set` → the timer made. */
export interface TimerSetResult {
  timer: TimerView;
}

/** `timer/cancel` params. */
export interface TimerCancelParams {
  id: string;
}

/** `timer/cancel` → the timer that was cancelled. */
export interface TimerCancelResult {
  cancelled: TimerView;
}

/** A length of time: `10m`, `1h30m`, or ms. */
const DURATION_FIELD = { anyOf: [stringField(64), { type: 'number' }] };
/** A timer's id. */
const TIMER_ID_FIELD = stringField(64);

/** The timer plugin's client methods: no permission beyond the `admin` of the server relaying them (the cli socket, the page), as they do what its tools do. */
export const TimerApi = {
  /** Every timer, the next to fire first. */
  List: request<Record<string, never>, TimerListResult>('timer/list', { params: NO_PARAMS, permission: null }),
  /** Sets a reminder for a conversation. */
  Set: request<TimerSetParams, TimerSetResult>('timer/set', {
    params: objectSchema({ session: SESSION_FIELD, message: stringField(1000), delay: DURATION_FIELD, at: stringField(64), repeat: DURATION_FIELD }, [
      'session',
      'message',
    ]),
    permission: null,
  }),
  /** Cancels a timer by id. */
  Cancel: request<TimerCancelParams, TimerCancelResult>('timer/cancel', { params: objectSchema({ id: TIMER_ID_FIELD }, ['id']), permission: null }),
} as const;
