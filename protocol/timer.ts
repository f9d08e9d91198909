// The client methods the timer plugin serves (the web page's Timers page reaches them through client/call).

/** Their wire names. */
export const TimerMethods = { List: 'timer/list', Set: 'timer/set', Cancel: 'timer/cancel' } as const;

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
