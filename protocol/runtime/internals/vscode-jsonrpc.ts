// The one door to vscode-jsonrpc's runtime layer (RAL; the package is pinned at 8.2.1 in package.json).
// Every connection asks RAL().timer.setImmediate, at the time it needs it, to schedule the dispatch of its
// queued inbound messages (lib/common/connection.js, triggerMessageQueue): replacing that one function
// changes how every connection in the process dispatches. test/protocol/runtime/internals/vscode-jsonrpc.test.ts
// checks that this still holds on a real connection and names what an upgrade changed.
import { RAL, type Disposable } from 'vscode-jsonrpc/node';

/** Runs `callback` soon, as setImmediate does; the Disposable cancels it. */
export type ScheduleSoon = (callback: (...args: unknown[]) => void, ...args: unknown[]) => Disposable;

/** What is missing or of another type in RAL, one line each naming it; empty when all is as expected. */
export function findRalProblems(): string[] {
  if (typeof RAL !== 'function') return ['vscode-jsonrpc/node RAL is not a function'];
  if (typeof RAL.install !== 'function') return ['vscode-jsonrpc/node RAL.install is not a function'];
  let ral: RAL;
  try {
    ral = RAL();
  } catch (error) {
    return [`vscode-jsonrpc/node RAL() throws: ${(error as Error).message}`];
  }
  return typeof ral.timer?.setImmediate === 'function' ? [] : ['vscode-jsonrpc/node RAL().timer.setImmediate is not a function'];
}

/** The scheduler connections dispatch inbound messages with now. */
export function currentDispatchScheduler(): ScheduleSoon {
  return RAL().timer.setImmediate;
}

/** Makes every connection of this process dispatch its queued inbound messages through `schedule`. */
export function replaceDispatchScheduler(schedule: ScheduleSoon): void {
  const ral = RAL();
  RAL.install({ ...ral, timer: { ...ral.timer, setImmediate: schedule } });
}
