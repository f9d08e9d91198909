import { Disposable } from 'vscode-jsonrpc/node';
import { replaceDispatchScheduler } from './internals/vscode-jsonrpc';

/**
 * Most queued messages this process's connections handle in one turn of the event loop before yielding to I/O.
 * It bounds how long a frame that has just arrived (an interrupt, say) waits for its read while another
 * connection floods this process: 32 keep pipelined throughput where 64 had it, at half the wait.
 */
export const DISPATCH_BUDGET = 32;

let installed = false;

/**
 * vscode-jsonrpc dispatches one inbound message per setImmediate: a burst of N messages costs N turns of the
 * event loop and, since each reply is flushed at the end of its turn, N write syscalls. This runs up to
 * `budget` queued dispatches per turn (same order; I/O still gets a turn between batches), so the replies of
 * a batch leave in one write. Batches run after the turn's reads (in its check phase, never as a microtask
 * of the read that queued them), so every connection that became readable is read, and its priority
 * frames intercepted, before any of the queued work runs.
 * It replaces the runtime layer's setImmediate (protocol/runtime/internals/vscode-jsonrpc.ts), so it holds for every
 * connection in the process.
 */
export function batchMessageDispatch(budget = DISPATCH_BUDGET): void {
  if (installed) return;
  installed = true;
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
  replaceDispatchScheduler((callback, ...args) => {
    const task = { run: () => callback(...args), cancelled: false };
    queue.push(task);
    if (!scheduled && !draining) {
      scheduled = true;
      setImmediate(drain);
    }
    return Disposable.create(() => {
      task.cancelled = true;
    });
  });
}
