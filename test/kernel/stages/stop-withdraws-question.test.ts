// Rung 2: a kernel in process with the built-in plugins; the real approvals guard asks about a tool call in a session
// the cli plugin owns, and an abort of the stage run (a Stop) cancels the guard, which withdraws its question.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ApprovalEvents, type AnsweredAsk } from '../../../protocol';
import { REPO_ROOT, startTestKernel, type TestKernel } from '../kernel-harness';
import { waitFor } from '../../harness/wait';

describe('a Stop while the guard asks', () => {
  let test: TestKernel;
  const answered: AnsweredAsk[] = [];

  before(async () => {
    test = await startTestKernel([], undefined, { builtinDir: path.join(REPO_ROOT, 'dist', 'plugins') });
    test.kernel.bus.subscribe('test', ApprovalEvents.Answered, (event) => answered.push(event.data as AnsweredAsk));
  });
  after(async () => {
    await test?.close();
  });

  it('cancels the guard: the call is denied, and the question leaves the pending ones as withdrawn', async () => {
    const { kernel } = test;
    kernel.sessions.append('cli:stop', [{ role: 'user', content: 'hi' }], 'cli');
    const stop = new AbortController();
    const running = kernel.stages.run(
      'before_toolcall',
      { session: 'cli:stop', tool_call: { id: '1', name: 'exec', args: { command: 'rm -r old/', cwd: '/home/lin' } } },
      stop.signal,
    );
    const question = await waitFor(() => kernel.services.asks.list('cli:stop')[0], { what: 'the guard to ask' });
    assert.equal(question.question, 'Allow exec "rm -r old/" in /home/lin?');
    assert.equal(question.shownVia, 'cli');
    stop.abort();
    const run = await running;
    assert.deepEqual(
      run.outcomes.map((o) => [o.plugin, o.status]),
      [['approvals', 'cancelled']],
    );
    assert.equal(run.snapshot.deny, true);
    const withdrawn = await waitFor(() => answered.find((a) => a.id === question.id), { what: 'the question to be withdrawn' });
    assert.deepEqual([withdrawn.choice, withdrawn.by], ['no', 'withdrawn']);
    assert.equal(kernel.services.asks.size, 0);
  });
});
