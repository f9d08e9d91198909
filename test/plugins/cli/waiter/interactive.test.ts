// Interactive waiter in a real terminal (tmux): the prompt, streamed answers, Ctrl-C as an interrupt,
// messages that arrive by themselves printed above the prompt, history across runs, Ctrl-D and Ctrl-C to quit.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { waitFor } from '../../../harness/homed';
import { TmuxPane, tmuxAvailable } from '../../../harness/tmux';
import { WAITER_MAIN, spawnWaiter } from '../../../harness/waiter';
import { startChatServer, type ChatServer } from './chat-server';
import type { ScriptedReply } from '../scripted-agent';

const SKIP = tmuxAvailable() ? false : 'tmux is not installed (apt-get install -y tmux)';
const SESSION = 'cli:tester';

/** Replies: "story" streams slowly (for Ctrl-C), anything else is echoed. */
function reply(text: string): ScriptedReply {
  if (text === 'story') return { chunks: ['Once ', 'upon ', 'a ', 'time ', ...Array<string>(40).fill('and ')], delayMs: 250 };
  return { chunks: ['you said: ', text] };
}

function startWaiter(t: TestContext, chat: ChatServer, history: string): TmuxPane {
  const pane = TmuxPane.start([process.execPath, WAITER_MAIN, '--socket', chat.socket, '--session', SESSION], { HOMEAGENT_HISTORY: history });
  t.after(() => pane.close());
  return pane;
}

/** The prompt is the last line, with `typed` after it (the screen's lines are trimmed, so `> ` shows as `>`). */
function promptShows(pane: TmuxPane, typed = ''): Promise<string> {
  const escaped = typed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return pane.waitForScreen(new RegExp(`\\n>${typed ? ` ${escaped}` : ''}$`), `the prompt${typed ? ` with "${typed}"` : ''}`);
}

describe('waiter, interactive', { skip: SKIP }, () => {
  it('answers at a prompt, stops an answer on Ctrl-C and gives the prompt back, quits on Ctrl-D', async (t) => {
    const chat = await startChatServer(t, reply);
    const pane = startWaiter(t, chat, path.join(chat.dir, 'history'));
    await pane.waitForScreen(/waiter: session cli:tester; Ctrl-C stops an answer/, 'the banner');
    await promptShows(pane);

    pane.type('hello');
    pane.press('Enter');
    await pane.waitForScreen(/> hello\nyou said: hello\n>$/, 'the answer, then the prompt');

    pane.type('story');
    pane.press('Enter');
    await pane.waitForScreen(/Once upon/, 'the story to start');
    pane.press('C-c');
    await pane.waitForScreen(/Once upon[^\n]*\n\(interrupted\)\n>$/, 'the prompt back after Ctrl-C');
    await waitFor(() => chat.agent.interrupts.length > 0, { what: 'chat/interrupt to reach the server' });
    assert.deepEqual(chat.agent.interrupts, [{ session: SESSION }], 'Ctrl-C sent chat/interrupt');
    await waitFor(() => chat.agent.busy === 0, { what: 'the story turn to stop' });
    assert.equal(pane.exitStatus(), undefined, 'Ctrl-C during an answer does not end waiter');

    pane.type('still here?');
    pane.press('Enter');
    await pane.waitForScreen(/you said: still here\?\n>$/, 'an answer after the interrupt');

    pane.press('C-d');
    await waitFor(() => pane.exitStatus() !== undefined, { what: 'waiter to exit on Ctrl-D' });
    assert.equal(pane.exitStatus(), 0);
    assert.deepEqual(
      chat.agent.inputs.map((i) => i.text),
      ['hello', 'story', 'still here?'],
    );
  });

  it('prints a message that arrives by itself above the prompt, keeping what is typed', async (t) => {
    const chat = await startChatServer(t, reply);
    chat.router.deliver({ session: SESSION, kind: 'done', text: 'You missed this one.' });
    const pane = startWaiter(t, chat, path.join(chat.dir, 'history'));
    await pane.waitForScreen(/\[\d\d:\d\d, while you were away\] You missed this one\.\n>$/, 'the missed turn at start');
    await waitFor(() => chat.router.followers(SESSION) === 1, { what: 'waiter to follow the session' });

    pane.type('half a thou');
    await promptShows(pane, 'half a thou');
    await chat.agent.unsolicited(SESSION, { chunks: ['Time to take ', 'the bread out!'] });
    const screen = await pane.waitForScreen(/\[\d\d:\d\d\] Time to take the bread out!\n> half a thou$/, 'the reminder above the prompt');
    assert.ok(!/> half a thou.*\n.*Time to take/.test(screen), 'the typed text was not broken up by the reminder');

    pane.type('ght');
    pane.press('Enter');
    await pane.waitForScreen(/you said: half a thought\n>$/, 'the finished line sent as typed');
    pane.press('C-c');
    await waitFor(() => pane.exitStatus() !== undefined, { what: 'waiter to exit on Ctrl-C at the prompt' });
    assert.equal(pane.exitStatus(), 0);
  });

  it('keeps the prompt history across runs, private to its owner', async (t) => {
    const chat = await startChatServer(t, reply);
    const history = path.join(chat.dir, 'history');
    const first = startWaiter(t, chat, history);
    await promptShows(first);
    for (const line of ['first question', 'second question']) {
      first.type(line);
      first.press('Enter');
      await first.waitForScreen(new RegExp(`you said: ${line}\\n>$`), `the answer to ${line}`);
    }
    first.press('C-d');
    await waitFor(() => first.exitStatus() !== undefined, { what: 'the first waiter to exit' });
    assert.equal(fs.readFileSync(history, 'utf8'), 'first question\nsecond question\n');
    assert.equal(fs.statSync(history).mode & 0o777, 0o600);

    const second = startWaiter(t, chat, history);
    await promptShows(second);
    second.press('Up');
    await promptShows(second, 'second question');
    second.press('Up');
    await promptShows(second, 'first question');
    second.press('Enter');
    await second.waitForScreen(/you said: first question\n>$/, 'the recalled line answered');
  });
});

describe('waiter, interactive with piped input', () => {
  it('asks each line in order, waits for the last answer at end of input, exits 0', async (t) => {
    const chat = await startChatServer(t, (text) => ({ chunks: ['you said: ', text], delayMs: 50 }));
    const run = spawnWaiter(['--socket', chat.socket, '--session', SESSION]);
    run.child.stdin?.end('one\n\ntwo\nthree\n');
    assert.equal(await run.exited, 0, run.stderr());
    assert.deepEqual(
      chat.agent.inputs.map((i) => i.text),
      ['one', 'two', 'three'],
    );
    assert.match(run.stdout(), /you said: one\n[^]*you said: two\n[^]*you said: three\n/);
  });

  it('writes no prompt to stdout: `answer=$(waiter < file)` gets the answers alone', async (t) => {
    const chat = await startChatServer(t, (text) => ({ chunks: ['you said: ', text] }));
    const file = path.join(chat.dir, 'questions.txt');
    fs.writeFileSync(file, 'one\ntwo\n');
    const run = spawnWaiter(['--socket', chat.socket, '--session', SESSION]);
    fs.createReadStream(file).pipe(run.child.stdin as NodeJS.WritableStream);
    assert.equal(await run.exited, 0, run.stderr());
    assert.equal(run.stdout(), 'you said: one\nyou said: two\n');
  });
});
