// How waiter prints an answer, its notes, and turns nobody of this waiter asked for.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AnswerPrinter, formatWhen, renderMissed, renderOutcome } from '../../../../plugins/cli/waiter/render';
import { ToolLines } from '../../../../plugins/cli/waiter/tool-lines';

function printer(sameScreen: boolean) {
  const out: string[] = [];
  const notes: string[] = [];
  const p = new AnswerPrinter({ answer: (t) => out.push(t), note: (l) => notes.push(l), sameScreen });
  return { p, out, notes };
}

test('deltas print as they come; the final text only when nothing streamed; the line is ended', () => {
  const streamed = printer(false);
  streamed.p.show({ kind: 'delta', text: 'Hel' });
  streamed.p.show({ kind: 'delta', text: 'lo' });
  streamed.p.finish({ text: 'Hello', interrupted: false });
  assert.equal(streamed.out.join(''), 'Hello\n');
  const whole = printer(false);
  whole.p.finish({ text: 'Short-circuit answer', interrupted: false });
  assert.equal(whole.out.join(''), 'Short-circuit answer\n');
  const empty = printer(false);
  empty.p.finish({ text: '', interrupted: true });
  assert.equal(empty.out.join(''), '');
});

test('on a shared screen a note starts on a line of its own; on separate streams the answer is left whole', () => {
  const shared = printer(true);
  shared.p.show({ kind: 'delta', text: 'Let me check.' });
  shared.p.show({ kind: 'notice', text: '[tool] timer_set' });
  shared.p.show({ kind: 'delta', text: 'Done.' });
  shared.p.finish(null);
  assert.equal(shared.out.join(''), 'Let me check.\nDone.\n');
  assert.deepEqual(shared.notes, ['· [tool] timer_set']);
  const split = printer(false);
  split.p.show({ kind: 'delta', text: 'Let me check.' });
  split.p.show({ kind: 'notice', text: '[tool] timer_set' });
  split.p.show({ kind: 'delta', text: ' Done.' });
  split.p.finish(null);
  assert.equal(split.out.join(''), 'Let me check. Done.\n');
});

test('missed turns and outcomes read as sentences', () => {
  const at = new Date(2030, 0, 1, 14, 5).getTime();
  assert.equal(renderMissed({ kind: 'missed', text: 'Take the bread out!', at }, at + 60_000), '[14:05, while you were away] Take the bread out!');
  assert.equal(formatWhen(at, at + 3 * 86_400_000), 'Jan 1 14:05');
  assert.equal(renderOutcome({ kind: 'error', error: 'no provider', code: 'HA_ERR_LLM_UNAVAILABLE' }), 'error: no provider (HA_ERR_LLM_UNAVAILABLE)');
  assert.equal(renderOutcome({ kind: 'done', text: 'Once upon', interrupted: true }), 'Once upon (interrupted)');
});

test('tool lines: progress by whole lines (dimmed on a terminal), the last part at the end, long arguments cut, calls kept apart', () => {
  const lines = new ToolLines(true);
  assert.deepEqual(lines.take({ id: 'a', name: 'exec', phase: 'start', args: JSON.stringify({ command: 'x'.repeat(200) }) }), []);
  assert.deepEqual(lines.take({ id: 'b', name: 'web_fetch', phase: 'start', args: '{"url":"http://h/"}' }), []);
  assert.deepEqual(lines.take({ id: 'a', name: 'exec', phase: 'progress', text: 'one\ntw' }), ['\u001b[2m  exec │ one\u001b[22m']);
  assert.deepEqual(lines.take({ id: 'b', name: 'web_fetch', phase: 'end', outcome: 'error', isError: true, ms: 40 }), [
    '[tool] web_fetch {"url":"http://h/"} → error 40 ms',
  ]);
  const end = lines.take({ id: 'a', name: 'exec', phase: 'end', outcome: 'cancelled', ms: 7 });
  assert.equal(end[0], '\u001b[2m  exec │ tw\u001b[22m');
  assert.match(end[1]!, /^\[tool\] exec \{"command":"x{108}… → cancelled 7 ms$/);
});

test("tool lines: a sub-agent's call is named with the sub-agent", () => {
  const lines = new ToolLines(false);
  lines.take({ id: 'child-1:a', name: 'exec', phase: 'start', args: '{"command":"ls"}', agent: 'child-1' });
  assert.deepEqual(lines.take({ id: 'child-1:a', name: 'exec', phase: 'progress', text: 'notes.txt\n', agent: 'child-1' }), ['  child-1 › exec │ notes.txt']);
  assert.deepEqual(lines.take({ id: 'child-1:a', name: 'exec', phase: 'end', outcome: 'ok', ms: 5, agent: 'child-1' }), [
    '[tool] child-1 › exec {"command":"ls"} → ok 5 ms',
  ]);
});

test('tool lines: the wait for approval is said apart from the run time, when it is worth a word', () => {
  const lines = new ToolLines(false);
  lines.take({ id: 'a', name: 'exec', phase: 'start', args: '{"command":"ls"}' });
  assert.deepEqual(lines.take({ id: 'a', name: 'exec', phase: 'end', outcome: 'ok', ms: 12, waitMs: 4_250 }), [
    '[tool] exec {"command":"ls"} → ok 12 ms, after 4.2 s waiting for approval',
  ]);
  lines.take({ id: 'b', name: 'exec', phase: 'start', args: '{"command":"ls"}' });
  assert.deepEqual(
    lines.take({ id: 'b', name: 'exec', phase: 'end', outcome: 'ok', ms: 12, waitMs: 3 }),
    ['[tool] exec {"command":"ls"} → ok 12 ms'],
    "a guard's own milliseconds are not a wait",
  );
  lines.take({ id: 'c', name: 'exec', phase: 'start', args: '{}' });
  assert.deepEqual(lines.take({ id: 'c', name: 'exec', phase: 'end', outcome: 'denied', denied: 'the person answered no', ms: 0, waitMs: 125_000 }), [
    '[tool] exec → denied: the person answered no (after 2 min 5 s waiting for approval)',
  ]);
});

test('a printer shows tool steps as note lines and keeps them off the answer', () => {
  const split = printer(false);
  split.p.show({ kind: 'delta', text: 'Checking.' });
  split.p.show({ kind: 'tool', tool: { id: 'c', name: 'pid', phase: 'start', args: '{}' } });
  split.p.show({ kind: 'tool', tool: { id: 'c', name: 'pid', phase: 'end', outcome: 'ok', ms: 1 } });
  split.p.show({ kind: 'mystery' as 'notice', text: 'a kind this waiter does not know' });
  split.p.finish(null);
  assert.equal(split.out.join(''), 'Checking.\n');
  assert.deepEqual(split.notes, ['[tool] pid → ok 1 ms']);
});
