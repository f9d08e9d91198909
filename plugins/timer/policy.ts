// The timer plugin's limits, in one place.

/** How timers behave. */
export interface TimerPolicy {
  /** A timer that fires this much after its time is marked late (`[timer, late by 12 min] …`). */
  lateAfterMs: number;
  /** Shortest repeat: each firing is a turn of the agent. */
  minRepeatMs: number;
  /** Shortest delay. */
  minDelayMs: number;
  /** Furthest a timer may be set ahead. */
  maxAheadMs: number;
  /** Most timers kept at once. */
  maxTimers: number;
  /** Longest single setTimeout: Node fires at once for 2^31 ms or more, so longer waits are chained. */
  maxSleepMs: number;
}

export const TIMER_POLICY: TimerPolicy = {
  lateAfterMs: 30_000,
  minRepeatMs: 60_000,
  minDelayMs: 1000,
  maxAheadMs: 10 * 366 * 86_400_000,
  maxTimers: 1000,
  maxSleepMs: 2 ** 31 - 1,
};
