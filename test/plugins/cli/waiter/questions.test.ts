// How waiter words a question and reads the answer, how long a turn may stay silent, and how the question desk holds
// the stream while a question is shown (the terminal and homed replaced by recorders; the real ones: approvals.test.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatStreamItem, OutputAsk } from '../../../../protocol';
import { INPUT_ENDED, type AskLine } from '../../../../plugins/cli/waiter/line-question';
import { allowHint, choiceFor, renderChoiceHint, renderQuestion } from '../../../../plugins/cli/waiter/question-text';
import { QuestionDesk } from '../../../../plugins/cli/waiter/questions';
import { TurnSilence } from '../../../../plugins/cli/waiter/silence';

const NOW = Date.parse('2026-03-01T10:00:00Z');
const ask = (id: string, question = 'Allow exec "ls"?'): OutputAsk => ({
  id,
  question,
  choices: ['yes', 'no', 'always'],
  expiresAt: new Date(NOW + 120_000).toISOString(),
});

describe('question text', () => {
  it('shows the choices by their keys and reads an answer by key or word, any case', () => {
    assert.equal(renderQuestion(ask('q-1', 'Allow exec "rm -r old/" in /home/lin?')), 'Allow exec "rm -r old/" in /home/lin? [y]es / [n]o / [a]lways ');
    assert.equal(choiceFor(' Y ', ['yes', 'no', 'always']), 'yes');
    assert.equal(choiceFor('always', ['yes', 'no', 'always']), 'always');
    assert.equal(choiceFor('', ['yes', 'no', 'always']), undefined);
    assert.equal(choiceFor('maybe', ['yes', 'no', 'always']), undefined);
    assert.equal(renderChoiceHint(['yes', 'no', 'always']), 'answer y, n or a');
    // Two choices with one first letter are keyed by their whole words.
    assert.equal(renderQuestion({ question: 'Go?', choices: ['no', 'never', 'yes'] }), 'Go? [no] / [never] / [y]es ');
    assert.equal(choiceFor('n', ['no', 'never', 'yes']), undefined);
  });

  it('names the homectl command that allows the call beforehand', () => {
    assert.equal(allowHint('Allow exec "git status -s"?'), "homectl approvals allow exec --exact 'git status -s'");
    assert.equal(allowHint('Allow exec "echo it\'s" in /tmp?'), "homectl approvals allow exec --exact 'echo it'\\''s'");
    assert.equal(allowHint('Allow write_file on /home/lin/a.txt?'), 'homectl approvals allow write_file --exact /home/lin/a.txt');
    assert.equal(allowHint(`Allow exec "${'x'.repeat(118)}…"?`), 'homectl approvals allow exec [PATTERN]', 'a shortened command is not offered as exact');
    assert.equal(allowHint('Allow add {"a":1}?'), 'homectl approvals allow add [PATTERN]');
  });
});

describe('turn silence', () => {
  it("is the usual limit, none while a tool call runs, and a question's time plus the limit after a question", () => {
    const silence = new TurnSilence(180_000, () => NOW);
    assert.equal(silence.after({ kind: 'delta', text: 'hi' }), 180_000);
    assert.equal(silence.after({ kind: 'tool', tool: { id: 'c1', name: 'exec', phase: 'start' } }), 0);
    assert.equal(silence.after({ kind: 'notice', text: 'q', ask: ask('q-1') }), 0);
    assert.equal(silence.after({ kind: 'tool', tool: { id: 'c1', name: 'exec', phase: 'end', outcome: 'ok', ms: 1 } }), 180_000);
    assert.equal(silence.after({ kind: 'notice', text: 'q', ask: ask('q-2') }), 300_000);
    assert.equal(new TurnSilence(0).after({ kind: 'delta', text: 'x' }), 0, 'no limit stays no limit');
  });
});

/** A desk whose terminal answers from `typed` in turn (a pending promise when it runs out) and whose answers are recorded. */
function desk(typed: (string | typeof INPUT_ENDED)[], options: { terminal?: boolean; now?: () => number } = {}) {
  const shown: ChatStreamItem[] = [];
  const answers: string[] = [];
  const out: string[] = [];
  const warnings: string[] = [];
  const queries: string[] = [];
  const askLine: AskLine = (query, signal) => {
    queries.push(query);
    const next = typed.shift();
    if (next !== undefined) return Promise.resolve(next);
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve(undefined), { once: true }));
  };
  const questions: QuestionDesk = new QuestionDesk({
    answer: async (id, choice, unasked) => {
      answers.push(`${id}=${choice}${unasked === undefined ? '' : ` (unasked: ${unasked})`}`);
    },
    askLine: options.terminal === false ? undefined : askLine,
    show: (item) => {
      shown.push(item);
      if (item.ask) questions.take(item.ask);
    },
    write: (text) => out.push(text),
    warn: (line) => warnings.push(line),
    now: options.now ?? (() => NOW),
  });
  return { questions, shown, answers, out, warnings, queries };
}

const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('question desk', () => {
  it('holds the stream while a question is shown and lets it go once answered', async () => {
    const d = desk([]);
    d.questions.pass({ kind: 'tool', tool: { id: 'c1', name: 'exec', phase: 'start' } });
    d.questions.pass({ kind: 'notice', text: 'q', ask: ask('q-1') });
    d.questions.pass({ kind: 'tool', tool: { id: 'c2', name: 'exec', phase: 'progress', text: 'x' } });
    assert.deepEqual(
      d.shown.map((i) => i.kind),
      ['tool', 'notice'],
      'the progress waits',
    );
    await d.questions.close();
    assert.deepEqual(d.out, ['(no longer asked)\n']);
    assert.deepEqual(
      d.shown.map((i) => i.kind),
      ['tool', 'notice', 'tool'],
      'what was held shows once the question is gone',
    );
    assert.deepEqual(d.answers, []);
  });

  it('asks again after an answer that names no choice, then sends the choice', async () => {
    const d = desk(['maybe', 'a']);
    d.questions.pass({ kind: 'notice', text: 'q', ask: ask('q-1') });
    await d.questions.close();
    assert.deepEqual(d.queries, ['Allow exec "ls"? [y]es / [n]o / [a]lways ', '(answer y, n or a) ']);
    assert.deepEqual(d.answers, ['q-1=always']);
  });

  it('takes a question away when the model speaks again (it was settled elsewhere), then shows what waited', async () => {
    const d = desk([]);
    d.questions.pass({ kind: 'tool', tool: { id: 'c1', name: 'exec', phase: 'start' } });
    d.questions.pass({ kind: 'notice', text: 'q', ask: ask('q-1') });
    d.questions.pass({ kind: 'tool', tool: { id: 'c1', name: 'exec', phase: 'end', outcome: 'ok', ms: 3 } });
    d.questions.pass({ kind: 'delta', text: 'Done.' });
    await settled();
    assert.deepEqual(d.out, ['(no longer asked)\n']);
    assert.deepEqual(
      d.shown.map((i) => i.kind),
      ['tool', 'notice', 'tool', 'delta'],
    );
    assert.deepEqual(d.answers, []);
  });

  it("says a question taken away at its expiry went unanswered in time, though the kernel's timeout came before waiter's own timer", async () => {
    const d = desk([], { now: () => NOW + 120_000 });
    d.questions.pass({ kind: 'tool', tool: { id: 'c1', name: 'exec', phase: 'start' } });
    d.questions.pass({ kind: 'notice', text: 'q', ask: ask('q-1') });
    d.questions.pass({ kind: 'tool', tool: { id: 'c1', name: 'exec', phase: 'end', outcome: 'denied', ms: 0 } });
    d.questions.pass({ kind: 'delta', text: 'Nobody answered.' });
    await settled();
    assert.deepEqual(d.out, ['(no answer in time: denied)\n']);
  });

  it('keeps a question shown while a sub-agent, running beside the turn, starts calls of its own', async () => {
    const d = desk(['y']);
    d.questions.pass({ kind: 'tool', tool: { id: 'c1', name: 'exec', phase: 'start' } });
    d.questions.pass({ kind: 'notice', text: 'q', ask: ask('q-1') });
    d.questions.pass({ kind: 'tool', tool: { id: 'child-1:c1', name: 'read_file', phase: 'start', agent: 'child-1' } });
    await d.questions.close();
    assert.deepEqual(d.answers, ['q-1=yes'], 'the question was still asked, and answered');
    assert.ok(!d.out.includes('(no longer asked)\n'));
  });

  it('Ctrl-C answers no to the question shown and the ones waiting, at once', () => {
    const d = desk([]);
    d.questions.pass({ kind: 'notice', text: 'q', ask: ask('q-1') });
    d.questions.pass({ kind: 'notice', text: 'q', ask: ask('q-2') });
    d.questions.decline();
    assert.deepEqual(d.answers, ['q-1=no', 'q-2=no'], 'sent before the caller interrupts the turn');
  });

  it('the end of input answers no; without a terminal each question is answered no, saying nobody could be asked and why', async () => {
    const ended = desk([INPUT_ENDED]);
    ended.questions.pass({ kind: 'notice', text: 'q', ask: ask('q-1') });
    await ended.questions.close();
    assert.deepEqual(ended.answers, ['q-1=no']);
    const none = desk([], { terminal: false });
    none.questions.pass({ kind: 'notice', text: 'q', ask: ask('q-2') });
    await none.questions.close();
    assert.deepEqual(
      none.answers,
      ['q-2=no (unasked: waiter has no terminal to ask in (its stdin or output is not a terminal))'],
      'the answer says nobody was asked, not that a person said no',
    );
    assert.deepEqual(none.warnings, [
      `waiter: nobody could be asked "Allow exec "ls"?" (no terminal): denied; allow it beforehand with homectl approvals allow exec --exact ls`,
    ]);
  });
});
