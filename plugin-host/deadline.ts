// One time limit over a whole piece of work (connecting, each redirect, the body; every step of a transfer),
// joined with the caller's own cancellation, and the error for whichever of the two ended it. Every step below
// gets the one signal, so the limit covers them together, not each alone.

/** The errors a deadline reports in place of whatever the work threw once its signal fired. */
export interface DeadlineReasons {
  /** The error for running out of time (made when the time is up): what did not finish, within how long, which setting. */
  timedOut: () => Error;
  /** The error for a cancellation; without it, the cancelling signal's own reason. */
  cancelled?: () => Error;
}

/** A running time limit. */
export interface Deadline {
  /** Aborted when the work is cancelled or its time is up; its reason is the error `explain` gives. */
  readonly signal: AbortSignal;
  /** The error to report for `error`: the cancellation's or the timeout's when either happened, else `error` itself. */
  explain(error: unknown): unknown;
  /** Stops the timer; call it once the work is over, however it ended. */
  dispose(): void;
}

/** Starts a limit of `timeoutMs` that `cancel` can also end. */
export function startDeadline(timeoutMs: number, cancel: AbortSignal, reasons: DeadlineReasons): Deadline {
  const timer = new AbortController();
  const handle = setTimeout(() => timer.abort(reasons.timedOut()), timeoutMs);
  // A cancellation wins over a timeout that fired after it: the caller asked first.
  const explain = (error: unknown): unknown => {
    if (cancel.aborted) return reasons.cancelled ? reasons.cancelled() : asError(cancel.reason);
    if (timer.signal.aborted) return asError(timer.signal.reason);
    return error;
  };
  return { signal: AbortSignal.any([cancel, timer.signal]), explain, dispose: () => clearTimeout(handle) };
}

/**
 * Runs `work` under a deadline of `timeoutMs` joined with `cancel`: if either fired, its error is what the caller
 * sees, whatever broke first below (a socket closed by the abort, a half-written file).
 */
export async function runWithDeadline<T>(
  timeoutMs: number,
  cancel: AbortSignal,
  reasons: DeadlineReasons,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const deadline = startDeadline(timeoutMs, cancel, reasons);
  try {
    return await work(deadline.signal);
  } catch (error) {
    throw deadline.explain(error);
  } finally {
    deadline.dispose();
  }
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}
