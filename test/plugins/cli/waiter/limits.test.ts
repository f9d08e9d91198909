// waiter's own bounds: a message over the limit is refused before anything is sent, through -say and
// through stdin; --timeout gives up on a homed that sends nothing, but never cuts an answer that comes.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { MAX_CHAT_TEXT } from '../../../../plugin-host/client-api/chat/methods';
import { runWaiter as runWaiterInProcess } from '../../../../plugins/cli/waiter/main';
import { waitFor } from '../../../harness/homed';
import { runWaiter, spawnWaiter } from '../../../harness/waiter';
import { startChatServer } from './chat-server';

/** Runs waiter in this process, with its streams collected. */
async function waiterHere(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const stdin = new PassThrough();
  stdin.end();
  const out = Object.assign(new PassThrough(), { write: (text: string) => ((stdout += text), true) });
  const code = await runWaiterInProcess(argv, {
    stdin,
    stdout: out as unknown as NodeJS.WritableStream & { write(text: string): unknown },
    stderr: { write: (text: string) => (stderr += text) },
    env: { HOMEAGENT_HISTORY: '' },
    cwd: process.cwd(),
    onSigint: () => () => undefined,
  });
  return { code, stdout, stderr };
}

const LIMIT_TEXT = new RegExp(
  `over the limit of ${MAX_CHAT_TEXT} characters a message may have; nothing of it was sent \\(shorten it or split it into several messages\\)`,
);

describe('waiter limits', () => {
  it('refuses a -say message over the limit before sending anything: exit 2, naming the limit', async (t) => {
    const chat = await startChatServer(t);
    const megabyte = await waiterHere(['--socket', chat.socket, '-say', 'm'.repeat(1_000_000)]);
    assert.equal(megabyte.code, 2);
    assert.equal(megabyte.stdout, '');
    assert.match(megabyte.stderr, /^waiter: the -say message has 1000000 characters, /);
    assert.match(megabyte.stderr, LIMIT_TEXT);
    // The compiled bin (an argument holds at most 128 KiB, so just over the limit).
    const bin = await runWaiter(['--socket', chat.socket, '-say', 'm'.repeat(MAX_CHAT_TEXT + 1)]);
    assert.equal(bin.code, 2, bin.stderr);
    assert.match(bin.stderr, new RegExp(`^waiter: the -say message has ${MAX_CHAT_TEXT + 1} characters, `));
    assert.deepEqual(chat.agent.inputs, [], 'nothing reached the agent');
  });

  it('counts characters as homed does: a message of the limit in emoji (twice as many UTF-16 units) is sent', async (t) => {
    const chat = await startChatServer(t, () => ({ chunks: ['ok'] }));
    const run = await waiterHere(['--socket', chat.socket, '-say', '😀'.repeat(MAX_CHAT_TEXT)]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(chat.agent.inputs[0]?.text.length, 2 * MAX_CHAT_TEXT);
  });

  it('stops at a piped line over the limit: exit 2 naming it; the lines before it are sent, nothing after', async (t) => {
    const chat = await startChatServer(t, (text) => ({ chunks: [`got ${text.length}`] }));
    const run = spawnWaiter(['--socket', chat.socket, '--session', 'pipe']);
    run.child.stdin?.on('error', () => undefined);
    run.child.stdin?.end(`hello\n${'p'.repeat(1_000_000)}\nafter\n`);
    assert.equal(await run.exited, 2, run.stderr());
    assert.match(run.stderr(), new RegExp(`^waiter: line 2 of stdin has more than ${MAX_CHAT_TEXT} characters, `));
    assert.match(run.stderr(), LIMIT_TEXT);
    assert.deepEqual(
      chat.agent.inputs.map((input) => input.text),
      ['hello'],
    );

    const first = spawnWaiter(['--socket', chat.socket, '--session', 'pipe2']);
    first.child.stdin?.on('error', () => undefined);
    first.child.stdin?.end(`${'q'.repeat(1_000_000)}\n`);
    assert.equal(await first.exited, 2, first.stderr());
    assert.match(first.stderr(), /^waiter: line 1 of stdin has more than/);
    assert.equal(chat.agent.inputs.length, 1, 'nothing more was sent');
  });

  it('gives up with --timeout when homed sends nothing: exit 3 with a clear message, and the turn is stopped', async (t) => {
    const chat = await startChatServer(t, () => ({ chunks: ['too late'], delayMs: 2500 }));
    const run = await runWaiter(['--socket', chat.socket, '--session', 'slow', '--timeout', '0.5', '-say', 'hi']);
    assert.equal(run.code, 3, run.stderr);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /^waiter: homed did not answer chat\/say within 500 ms; is it busy or stuck\? see homed's log/);
    // waiter left: the cli plugin stops the turn once it starts answering.
    await waitFor(() => chat.agent.interrupts.some((i) => i.session === 'slow'), { what: 'the abandoned turn to be interrupted' });
  });

  it('does not cut an answer that keeps coming, however long it takes in all', async (t) => {
    const words = Array.from({ length: 10 }, (_, i) => `w${i} `);
    const chat = await startChatServer(t, () => ({ chunks: words, delayMs: 200 }));
    const started = Date.now();
    const run = await runWaiter(['--socket', chat.socket, '--timeout', '0.8', '-say', 'talk']);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(Date.now() - started > 1600, 'the answer took longer than the timeout twice over');
    assert.equal(run.stdout, `${words.join('')}\n`);
  });

  it('exits 2 on a bad --timeout', async () => {
    const run = await runWaiter(['--socket', '/nonexistent/x.sock', '--timeout', 'soon', '-say', 'hi']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^waiter: --timeout needs a number of seconds, e\.g\. --timeout 60 \(0: wait as long as it takes\), got soon\n\nusage: waiter/);
  });
});
