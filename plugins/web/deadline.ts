// One time limit over a whole call (connecting, each redirect, the body), joined with the call's own
// cancellation, and the words for whichever of the two ended it.
import { formatDuration } from '../../protocol/units';
import { SETTING } from './policy';

/** A running time limit. */
export interface Deadline {
  /** Aborted when the call is cancelled or its time is up. */
  readonly signal: AbortSignal;
  /** The error to report for `error`: a clear one when the call was cancelled or timed out, else `error` itself. */
  explain(error: unknown): unknown;
  /** Stops the timer. */
  dispose(): void;
}

/** Starts a limit of `timeoutMs` for `what` (`web_fetch of https://…`) that `cancel` can also end. */
export function startDeadline(cancel: AbortSignal, timeoutMs: number, what: string): Deadline {
  const timer = new AbortController();
  const handle = setTimeout(() => timer.abort(new Error(`${what} timed out`)), timeoutMs);
  return {
    signal: AbortSignal.any([cancel, timer.signal]),
    explain: (error) => {
      if (cancel.aborted) return new Error(`${what} was cancelled`);
      if (timer.signal.aborted) {
        return new Error(`${what} did not finish within ${formatDuration(timeoutMs)} (the setting web:${SETTING.timeout})`);
      }
      return error;
    },
    dispose: () => clearTimeout(handle),
  };
}
