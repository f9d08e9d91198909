// One deadline around a whole transfer: every step below gets the same signal.

/**
 * Runs `work` with a signal that aborts after `timeoutMs` (with `onTimeout()` as the reason) or when
 * `stop` aborts; if the signal fired, its reason is what the caller sees, whatever broke first below.
 */
export async function runWithDeadline<T>(timeoutMs: number, onTimeout: () => Error, stop: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(onTimeout()), timeoutMs);
  const signal = AbortSignal.any([deadline.signal, stop]);
  try {
    return await work(signal);
  } catch (error) {
    if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason));
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
