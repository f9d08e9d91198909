// The one deadline helper of the plugins: a time limit joined with the caller's cancellation, and the error it reports.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runWithDeadline, startDeadline } from '../../plugin-host/deadline';

/** Work that ends only when its signal fires, with an error of its own (as a socket closed under it would). */
function waitForAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('socket hang up')), { once: true }));
}

const reasons = { timedOut: () => new Error('the download did not finish within 20 ms') };

test('out of time: the timeout error, not whatever the work threw', async () => {
  await assert.rejects(runWithDeadline(20, new AbortController().signal, reasons, waitForAbort), /^Error: the download did not finish within 20 ms$/);
});

test("cancelled: the cancelling signal's reason, or the error named for it", async () => {
  const stop = new AbortController();
  const running = runWithDeadline(60_000, stop.signal, reasons, waitForAbort);
  stop.abort(new Error('pluginmgr is stopping'));
  await assert.rejects(running, /^Error: pluginmgr is stopping$/);

  const cancel = new AbortController();
  const deadline = startDeadline(60_000, cancel.signal, { ...reasons, cancelled: () => new Error('web_fetch of x was cancelled') });
  cancel.abort();
  assert.equal(deadline.signal.aborted, true);
  assert.match(String(deadline.explain(new Error('socket hang up'))), /was cancelled/);
  deadline.dispose();
});

test("neither: the work's own answer or error, and the timer is stopped", async () => {
  assert.equal(await runWithDeadline(60_000, new AbortController().signal, reasons, () => Promise.resolve(42)), 42);
  await assert.rejects(
    runWithDeadline(60_000, new AbortController().signal, reasons, () => Promise.reject(new Error('HTTP 404'))),
    /^Error: HTTP 404$/,
  );
  // Had a 60 s timer been left running, this test file would not end before it fired.
});
