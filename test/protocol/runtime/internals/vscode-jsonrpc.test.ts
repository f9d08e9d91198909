// The contract of protocol/runtime/internals/vscode-jsonrpc.ts with the installed vscode-jsonrpc: RAL and its
// timer.setImmediate are there, and real connections dispatch inbound messages through whatever is installed
// there (what protocol/runtime/dispatch.ts's batching relies on). When an upgrade breaks it, the failure names it.
import assert from 'node:assert/strict';
import test from 'node:test';
import { RequestType } from 'vscode-jsonrpc';
import { currentDispatchScheduler, findRalProblems, replaceDispatchScheduler, type ScheduleSoon } from '../../../../protocol/runtime/internals/vscode-jsonrpc';
import { connectedPair } from '../../../harness/connection-pair';

const Echo = new RequestType<{ n: number }, { n: number }, void>('test/echo');

test('RAL, RAL.install and RAL().timer.setImmediate are there', () => {
  const problems = findRalProblems();
  assert.deepEqual(problems, [], `vscode-jsonrpc changed: ${problems.join('; ')}`);
});

test('connections dispatch inbound messages through RAL().timer.setImmediate as installed at the time', async (t) => {
  const pair = connectedPair(); // installs the batching scheduler of protocol/runtime/dispatch.ts
  t.after(() => pair.close());
  pair.b.onRequest(Echo, (params) => ({ n: params.n }));
  const before = currentDispatchScheduler();
  let scheduled = 0;
  const counting: ScheduleSoon = (callback, ...args) => {
    scheduled += 1;
    return before(callback, ...args);
  };
  replaceDispatchScheduler(counting);
  t.after(() => replaceDispatchScheduler(before));
  assert.equal(currentDispatchScheduler(), counting, 'RAL.install did not replace RAL().timer.setImmediate');

  const answers = await Promise.all(Array.from({ length: 50 }, (_, n) => pair.a.sendRequest(Echo, { n })));
  assert.deepEqual(
    answers.map((a) => a.n),
    Array.from({ length: 50 }, (_, n) => n),
    'every request answered, in order',
  );
  assert.ok(scheduled >= 2, `connections no longer dispatch through RAL().timer.setImmediate (scheduled ${scheduled} times for 50 requests and their answers)`);
});
