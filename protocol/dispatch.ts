import { Disposable, RAL } from 'vscode-jsonrpc/node';

/** Most queued messages this process's connections handle in one turn of the event loop before yielding to I/O. */
export const DISPATCH_BUDGET = 64;

let installed = false;

/**
 * vscode-jsonrpc dispatches one inbound message per setImmediate: a burst of N messages costs N turns of the
 * event loop and, since each reply is flushed at the end of its turn, N write syscalls. This runs up to
 * `budget` queued dispatches per turn (same order; I/O still gets a turn between batches), so the replies of
 * a batch leave in one write. The first batch after a read starts when the read's callback returns.
 * It replaces the runtime layer's setImmediate, so it holds for every connection in the process.
 */
export function batchMessageDispatch(budget = DISPATCH_BUDGET): void {
  if (installed) return;
  installed = true;
  const ral = RAL();
  const queue: { run: () => void; cancelled: boolean }[] = [];
  let scheduled = false;
  let draining = false;
  const drain = (): void => {
    scheduled = false;
    draining = true;
    let ran = 0;
    try {
      while (ran < budget) {
        const task = queue.shift();
        if (!task) break;
        if (task.cancelled) continue;
        ran += 1;
        task.run();
      }
    } finally {
      draining = false;
      if (queue.length > 0) {
        scheduled = true;
        setImmediate(drain);
      }
    }
  };
  RAL.install({
    ...ral,
    timer: {
      ...ral.timer,
      setImmediate: (callback: (...args: unknown[]) => void, ...args: unknown[]) => {
        const task = { run: () => callback(...args), cancelled: false };
        queue.push(task);
        if (!scheduled && !draining) {
          scheduled = true;
          queueMicrotask(drain);
        }
        return Disposable.create(() => {
          task.cancelled = true;
        });
      },
    },
  });
}
