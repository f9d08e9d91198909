// Approval questions through a real waiter in a real terminal (tmux), against a real homed whose model (the fake LLM)
// calls exec: y runs it, n denies it (the model is told), a runs it and the next identical call runs unasked, no
// answer is denied at approvals:timeout, Ctrl-C answers no and interrupts, -say asks on a terminal and denies at once
// without one, a question outlives waiter's own silence limit, and the approvals plugin SIGKILLed mid-question denies.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { callOnce } from '../../../../plugins/cli/client';
import { ApprovalsApi, SocketApi } from '../../../../protocol';
import { startFakeLlm, type FakeLlm } from '../../../fake-llm/server';
import { fakeProviderEnv, pidAlive, startHomed, waitFor, type HomedHandle } from '../../../harness/homed';
import { TmuxPane, tmuxAvailable } from '../../../harness/tmux';
import { WAITER_MAIN, runWaiter } from '../../../harness/waiter';

const SKIP = tmuxAvailable() ? false : 'tmux is not installed (apt-get install -y tmux)';
/** Long enough for a person in a test to answer on a 2-core machine. */
const QUESTION_TIMEOUT_MS = 60_000;
/** The "no answer" case waits this out. */
const SHORT_TIMEOUT_MS = 3_000;
const CHOICES = '[y]es / [n]o / [a]lways';

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('waiter asks approval questions', { skip: SKIP }, () => {
  let llm: FakeLlm;
  let homed: HomedHandle;
  let workspace: string;

  before(async () => {
    llm = await startFakeLlm();
    homed = await startHomed({ env: fakeProviderEnv(llm) });
    await setQuestionTimeout(QUESTION_TIMEOUT_MS);
    workspace = path.join(homed.dataDir, 'workspace');
  });
  after(async () => {
    await homed?.cleanup();
    await llm?.close();
  });

  const setQuestionTimeout = (ms: number): Promise<unknown> => callOnce(homed.socket, SocketApi.ConfigSet, { scope: 'approvals', key: 'timeout', value: ms });

  function startWaiter(t: TestContext, session: string, extra: string[] = []): TmuxPane {
    const pane = TmuxPane.start(
      [process.execPath, WAITER_MAIN, '--socket', homed.socket, '--session', session, ...extra],
      {
        HOMEAGENT_HISTORY: path.join(homed.dataDir, `history-${session.replace(/\W/g, '_')}`),
      },
      { width: 240, height: 40 },
    );
    t.after(() => pane.close());
    return pane;
  }

  /** Scripts an exec of `command`, then `answer` unless the turn ends before; says `text` at the prompt; waits for the question. */
  async function sayAndWaitForQuestion(pane: TmuxPane, command: string, answer: string | undefined, text = `please run ${command}`): Promise<string> {
    assert.equal(llm.pending, 0, 'every scripted answer of the tests before was used');
    llm.enqueue({ toolCalls: [{ name: 'exec', args: { command } }] }, ...(answer === undefined ? [] : [{ text: answer }]));
    await pane.waitForScreen(/\n>$/, 'the prompt', 20_000);
    pane.type(text);
    pane.press('Enter');
    return pane.waitForScreen(new RegExp(`Allow exec ${escape(JSON.stringify(command))}\\? ${escape(CHOICES)}$`), 'the question', 20_000);
  }

  /** What the model was sent last as a tool's result. */
  const lastToolMessage = (): string =>
    (llm.requests.at(-1)?.body as { messages?: { role: string; content: string }[] } | undefined)?.messages?.filter((m) => m.role === 'tool').at(-1)?.content ??
    '';

  const decisions = async (session: string): Promise<string[][]> => {
    const listed = await callOnce(homed.socket, ApprovalsApi.List, { session, limit: 100 });
    return listed.decisions.map((d) => [d.decision, d.by, d.detail ?? '']).reverse();
  };

  it('y runs the command; the answer goes on where it was, and the typed y stays out of the history', async (t) => {
    const pane = startWaiter(t, 'cli:ask-yes');
    await sayAndWaitForQuestion(pane, 'echo yes > yes.txt', 'Written.');
    pane.type('y');
    pane.press('Enter');
    const screen = await pane.waitForScreen(
      /\[tool\] exec \{"command":"echo yes > yes\.txt"\} → ok \d+ ms\nWritten\.\n>$/,
      'the call run and the answer',
      20_000,
    );
    assert.match(screen, new RegExp(`${escape(CHOICES)} y\\n`), 'the typed answer stays after the question');
    assert.equal(fs.readFileSync(path.join(workspace, 'yes.txt'), 'utf8'), 'yes\n');
    assert.deepEqual(await decisions('cli:ask-yes'), [['allow', 'person', 'the person answered yes (through cli)']]);
    pane.press('Up');
    await pane.waitForScreen(/\n> please run echo yes > yes\.txt$/, 'the message, not the answer, recalled by Up');
  });

  it('n denies the command and the model is told the person said no', async (t) => {
    const pane = startWaiter(t, 'cli:ask-no');
    await sayAndWaitForQuestion(pane, 'echo no > no.txt', 'I was not allowed.');
    pane.type('n');
    pane.press('Enter');
    await pane.waitForScreen(
      /→ denied: the person answered no \(through cli\); it was not run \(\d+ ms\)\nI was not allowed\.\n>$/,
      'the denial and the answer',
      20_000,
    );
    assert.equal(fs.existsSync(path.join(workspace, 'no.txt')), false);
    assert.match(lastToolMessage(), /denied: the person answered no \(through cli\); it was not run/);
  });

  it('an answer that names no choice is asked again; a then runs it, and the next identical call runs unasked', async (t) => {
    const pane = startWaiter(t, 'cli:ask-always');
    await sayAndWaitForQuestion(pane, 'echo again >> always.txt', 'Once.');
    pane.type('maybe');
    pane.press('Enter');
    await pane.waitForScreen(/\(answer y, n or a\)$/, 'the choices said again');
    pane.type('a');
    pane.press('Enter');
    await pane.waitForScreen(/Once\.\n>$/, 'the first answer', 20_000);
    llm.enqueue({ toolCalls: [{ name: 'exec', args: { command: 'echo again >> always.txt' } }] }, { text: 'Twice.' });
    pane.type('once more');
    pane.press('Enter');
    const screen = await pane.waitForScreen(/Twice\.\n>$/, 'the second answer', 20_000);
    assert.equal(screen.split('Allow exec').length - 1, 1, 'asked once only');
    assert.equal(fs.readFileSync(path.join(workspace, 'always.txt'), 'utf8'), 'again\nagain\n');
    const rows = await decisions('cli:ask-always');
    assert.deepEqual(
      rows.map(([decision, by]) => [decision, by]),
      [
        ['allow', 'person'],
        ['allow', 'rule'],
      ],
    );
    assert.match(rows[0]?.[2] ?? '', /answered always \(through cli\); rule r-\w+ added/);
  });

  it('no answer: at approvals:timeout the call is denied and the question leaves the screen', async (t) => {
    await setQuestionTimeout(SHORT_TIMEOUT_MS);
    t.after(() => setQuestionTimeout(QUESTION_TIMEOUT_MS));
    const pane = startWaiter(t, 'cli:ask-silent');
    await sayAndWaitForQuestion(pane, 'echo late > late.txt', 'Nobody answered.');
    const screen = await pane.waitForScreen(
      /\(no answer in time: denied\)\n[^]*→ denied: nobody answered within 3 s; denied \(after \d+(\.\d)? s waiting for approval\)\nNobody answered\.\n>$/,
      'the timeout',
      20_000,
    );
    assert.ok(screen.length > 0);
    assert.equal(fs.existsSync(path.join(workspace, 'late.txt')), false);
    assert.deepEqual(
      (await decisions('cli:ask-silent')).map(([decision, by]) => [decision, by]),
      [['deny', 'timeout']],
    );
  });

  it('Ctrl-C while asked answers no and interrupts the turn; waiter stays', async (t) => {
    const pane = startWaiter(t, 'cli:ask-ctrl-c');
    // Interrupted, the turn asks the model nothing more.
    await sayAndWaitForQuestion(pane, 'echo stop > stop.txt', undefined);
    pane.press('C-c');
    await pane.waitForScreen(/\nno\n[^]*\(interrupted\)\n>$/, 'no, then the prompt back', 20_000);
    assert.equal(fs.existsSync(path.join(workspace, 'stop.txt')), false);
    assert.deepEqual(await decisions('cli:ask-ctrl-c'), [['deny', 'person', 'the person answered no (through cli); it was not run']]);
    assert.equal(pane.exitStatus(), undefined, 'Ctrl-C while asked does not end waiter');
  });

  it('-say on a terminal asks on it and exits 0 after the answer', async (t) => {
    llm.enqueue({ toolCalls: [{ name: 'exec', args: { command: 'echo said > said.txt' } }] }, { text: 'Said and done.' });
    const pane = startWaiter(t, 'cli:say-tty', ['-say', 'write said.txt']);
    await pane.waitForScreen(new RegExp(`Allow exec "echo said > said\\.txt"\\? ${escape(CHOICES)}$`), 'the question', 20_000);
    pane.type('y');
    pane.press('Enter');
    await pane.waitForScreen(
      /\[tool\] exec \{"command":"echo said > said\.txt"\} → ok \d+ ms\nSaid and done\.\n\[exit 0\]/,
      'the call, the answer and exit 0',
      20_000,
    );
    assert.equal(fs.readFileSync(path.join(workspace, 'said.txt'), 'utf8'), 'said\n');
  });

  it('-say without a terminal answers no at once and says why and how to allow it', async () => {
    llm.enqueue({ toolCalls: [{ name: 'exec', args: { command: "echo it's piped > piped.txt" } }] }, { text: 'Denied, then.' });
    const started = Date.now();
    const said = await runWaiter(['--socket', homed.socket, '--session', 'cli:say-pipe', '-say', 'write piped.txt']);
    const tookMs = Date.now() - started;
    assert.equal(said.code, 0, said.stderr);
    assert.equal(said.stdout, 'Denied, then.\n');
    assert.match(
      said.stderr,
      /^waiter: nobody could be asked "Allow exec "echo it's piped > piped\.txt"\?" \(no terminal\): denied; allow it beforehand with homectl approvals allow exec --exact 'echo it'\\''s piped > piped\.txt'\n/,
    );
    assert.match(
      said.stderr,
      /→ denied: nobody could be asked through cli: waiter has no terminal to ask in \(its stdin or output is not a terminal\); denied/,
    );
    assert.deepEqual(
      await decisions('cli:say-pipe'),
      [['deny', 'no-client', 'nobody could be asked through cli: waiter has no terminal to ask in (its stdin or output is not a terminal); denied']],
      'the record says nobody was asked, not that a person said no',
    );
    assert.ok(tookMs < QUESTION_TIMEOUT_MS / 2, `answered at once (${tookMs} ms), not at the question's timeout`);
    assert.equal(fs.existsSync(path.join(workspace, 'piped.txt')), false);
  });

  it("a question outlives waiter's own silence limit (--timeout 1): the turn is not cut while a person may answer", async (t) => {
    llm.enqueue({ toolCalls: [{ name: 'exec', args: { command: 'echo slow > slow.txt' } }] }, { text: 'Slowly done.' });
    const pane = startWaiter(t, 'cli:say-slow', ['--timeout', '1', '-say', 'write slow.txt']);
    await pane.waitForScreen(/Allow exec "echo slow > slow\.txt"\?/, 'the question', 20_000);
    const shownAt = Date.now();
    // Three times the silence limit pass before the answer: the wait is the point of the test.
    await waitFor(() => Date.now() - shownAt > 3_000, { what: 'three seconds of silence', timeoutMs: 10_000 });
    assert.equal(pane.exitStatus(), undefined, 'waiter still waits');
    pane.type('y');
    pane.press('Enter');
    await pane.waitForScreen(/Slowly done\.\n\[exit 0\]/, 'the answer after the wait', 20_000);
  });

  it('the approvals plugin SIGKILLed mid-question: the call is denied and the question taken away', async (t) => {
    const pane = startWaiter(t, 'cli:ask-crash');
    await sayAndWaitForQuestion(pane, 'echo crash > crash.txt', 'The guard went away.');
    const { plugin } = await callOnce(homed.socket, SocketApi.PluginsInfo, { name: 'approvals' });
    assert.ok(plugin.pid);
    process.kill(plugin.pid, 'SIGKILL');
    await waitFor(() => !pidAlive(plugin.pid as number), { what: 'the approvals plugin to die' });
    await pane.waitForScreen(
      new RegExp(
        `${escape(CHOICES)}\\n\\(no longer asked\\)\\n\\[tool\\] exec [^\\n]*→ denied: guard plugin "approvals" did not answer[^\\n]*\\nThe guard went away\\.\\n>$`,
      ),
      'the denial',
      20_000,
    );
    assert.equal(fs.existsSync(path.join(workspace, 'crash.txt')), false);
    assert.deepEqual((await callOnce(homed.socket, SocketApi.ApprovalPending, {})).pending, []);
  });
});
