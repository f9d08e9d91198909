// waiter -say, the compiled bin, against the cli plugin's real chat rows in-process (the agent scripted).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { leaveStaleSocket, makeTempDir, waitFor } from '../../../harness/homed';
import { runWaiter, spawnWaiter } from '../../../harness/waiter';
import type { ScriptedReply } from '../scripted-agent';
import { startChatServer } from './chat-server';

describe('waiter -say', () => {
  it('sends one message in the session cli:<user> and prints the answer, exit 0', async (t) => {
    const chat = await startChatServer(t, () => ({ chunks: ['Hello', ', Alice.'] }));
    const { code, stdout, stderr } = await runWaiter(['--socket', chat.socket, '-say', 'hi there']);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, 'Hello, Alice.\n');
    assert.equal(stderr, '');
    assert.deepEqual(
      chat.agent.inputs.map((i) => [i.session, i.text]),
      [[`cli:${os.userInfo().username}`, 'hi there']],
    );
  });

  it('takes --say=TEXT and --session NAME', async (t) => {
    const chat = await startChatServer(t);
    const { code, stdout } = await runWaiter(['--socket', chat.socket, '--session', 'kitchen', '--say=what time is it']);
    assert.equal(code, 0);
    assert.equal(stdout, 'you said: what time is it\n');
    assert.equal(chat.agent.inputs[0]?.session, 'kitchen');
  });

  it('streams the answer as it arrives, before the turn is over', async (t) => {
    const chat = await startChatServer(t, () => ({ chunks: ['one ', 'two ', 'three'], delayMs: 300 }));
    const run = spawnWaiter(['--socket', chat.socket, '-say', 'count']);
    await waitFor(() => run.stdout().startsWith('one'), { what: 'the first word on stdout' });
    assert.equal(chat.agent.busy, 1, 'the first word was printed while the agent was still answering');
    assert.equal(await run.exited, 0);
    assert.equal(run.stdout(), 'one two three\n');
  });

  it('puts notices and missed turns on stderr, and only the answer on stdout', async (t) => {
    const chat = await startChatServer(t, () => ({ notices: ['[tool] timer_set'], chunks: ['Timer set.'] }));
    chat.router.deliver({ session: 's', kind: 'done', text: 'Take the bread out!' });
    const { code, stdout, stderr } = await runWaiter(['--socket', chat.socket, '--session', 's', '-say', 'remind me']);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, 'Timer set.\n');
    assert.match(stderr, /^\[\d\d:\d\d, while you were away\] Take the bread out!\n· \[tool\] timer_set\n$/);
  });

  it('shows each tool call on stderr: its output as it came, prefixed, then one line with arguments, outcome and time', async (t) => {
    const tools: ScriptedReply['tools'] = [
      { id: 'c1', name: 'exec', phase: 'start', args: '{"command":"ls"}' },
      { id: 'c1', name: 'exec', phase: 'progress', text: 'a.txt\nb.t' },
      { id: 'c1', name: 'exec', phase: 'progress', text: 'xt\n' },
      { id: 'c1', name: 'exec', phase: 'end', outcome: 'ok', ms: 12, result: '{"exitCode":0}' },
      { id: 'c2', name: 'exec', phase: 'start', args: '{"command":"rm -r old"}' },
      { id: 'c2', name: 'exec', phase: 'end', outcome: 'denied', denied: 'the owner said no', ms: 3 },
    ];
    const chat = await startChatServer(t, () => ({ tools, chunks: ['Listed.'] }));
    const { code, stdout, stderr } = await runWaiter(['--socket', chat.socket, '-say', 'list files']);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, 'Listed.\n', 'stdout holds the answer only');
    assert.equal(
      stderr,
      [
        '  exec │ a.txt',
        '  exec │ b.txt',
        '[tool] exec {"command":"ls"} → ok 12 ms',
        '[tool] exec {"command":"rm -r old"} → denied: the owner said no (3 ms)',
        '',
      ].join('\n'),
    );
  });

  it("exits 1 with the daemon's message and error name when the turn fails", async (t) => {
    const chat = await startChatServer(t, () => ({ error: { code: 'HA_ERR_LLM_UNAVAILABLE', message: 'no LLM provider is configured' } }));
    const { code, stdout, stderr } = await runWaiter(['--socket', chat.socket, '-say', 'hi']);
    assert.equal(code, 1);
    assert.equal(stdout, '');
    assert.equal(stderr, 'waiter: no LLM provider is configured (HA_ERR_LLM_UNAVAILABLE)\n');
  });

  it('turns Ctrl-C into chat/interrupt: what came stays printed, exit 130', async (t) => {
    const chat = await startChatServer(t, () => ({
      chunks: ['Once ', 'upon ', 'a ', 'time ', 'there ', 'was ', 'a ', 'very ', 'long ', 'story'],
      delayMs: 200,
    }));
    const run = spawnWaiter(['--socket', chat.socket, '--session', 'tale', '-say', 'tell me a story']);
    await waitFor(() => run.stdout().includes('upon'), { what: 'two words of the story' });
    run.child.kill('SIGINT');
    assert.equal(await run.exited, 130);
    assert.deepEqual(chat.agent.interrupts, [{ session: 'tale' }]);
    assert.match(run.stdout(), /^Once upon .*\n$/);
    assert.ok(!run.stdout().includes('story'), 'the answer stopped');
    assert.match(run.stderr(), /the answer was interrupted/);
  });

  it('exits 3 saying homed is not running, and how to start it, when nothing serves the socket', async (t) => {
    const dir = makeTempDir('waiter-');
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const missing = await runWaiter(['-data', dir, '-say', 'hi']);
    assert.equal(missing.code, 3);
    assert.match(missing.stderr, /homed is not running at .*run\/homed\.sock \(no socket there\); start it with `npm start`/);
    const stale = path.join(dir, 'stale.sock');
    await leaveStaleSocket(stale);
    const refused = await runWaiter(['--socket', stale, '-say', 'hi']);
    assert.equal(refused.code, 3);
    assert.match(refused.stderr, /homed is not running at .*stale\.sock \(a stale socket, nothing answers\)/);
  });

  it('exits 2 with the usage on a bad command line', async () => {
    for (const args of [['-say'], ['-say', '  '], ['--bogus'], ['hello', 'there'], ['--session']]) {
      const { code, stderr } = await runWaiter(['--socket', '/nonexistent/x.sock', ...args]);
      assert.equal(code, 2, `${args.join(' ')}: ${stderr}`);
      assert.match(stderr, /^waiter: .*\n\nusage: waiter/);
    }
    const help = await runWaiter(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^usage: waiter/);
  });
});
