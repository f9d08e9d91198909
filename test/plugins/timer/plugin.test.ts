// The timer plugin in a real plugin process under an in-process kernel, run as the built-in it is:
// its compiled folder, the protocol and the plugin SDK it loads are laid out as in dist/.
// The kernel's interrupt channel is watched to see what the timer sends; a scripted LLM shows the
// agent took it up. Only the LLM is scripted.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import pino from 'pino';
import { ConfigRegistry } from '../../../kernel/config';
import { Kernel } from '../../../kernel/kernel';
import { IOManager, type InterruptEvent } from '../../../kernel/io/io-manager';
import { ToolInvokeRequest } from '../../../protocol';
import type { Timer } from '../../../plugins/timer/timers';
import { QUIET_MEMORY } from '../../harness/homed';
import { waitFor } from '../../harness/wait';
import { FAST_POLICY, REPO_ROOT, type TestKernel } from '../../kernel/kernel-harness';
import { ScriptedLlm } from '../../kernel/agent/scripted-llm';

const TIMER_DIR = path.join(REPO_ROOT, 'dist', 'plugins', 'timer');
const MINUTE = 60_000;
const DAY = 86_400_000;

/** Every interrupt any plugin hands the kernel while the test runs. */
function watchInterrupts(t: TestContext): InterruptEvent[] {
  const seen: InterruptEvent[] = [];
  const original = IOManager.prototype.submitInterrupt;
  IOManager.prototype.submitInterrupt = function (this: IOManager, interrupt) {
    seen.push({ ...interrupt, at: Date.now() });
    return original.call(this, interrupt);
  };
  t.after(() => {
    IOManager.prototype.submitInterrupt = original;
  });
  return seen;
}

const PROTOCOL_DIR = path.join(REPO_ROOT, 'dist', 'protocol');
const SDK_DIR = path.join(REPO_ROOT, 'dist', 'plugin-host');

/**
 * A data dir beside a built-ins folder holding only the compiled timer, with the protocol it loads (units, its
 * client methods' descriptors, the error catalogue they answer with), the SDK it serves them with, and the packages
 * those load.
 */
function dataDirWithTimer(t: TestContext): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'homed-timer-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.cpSync(TIMER_DIR, path.join(root, 'plugins', 'timer'), { recursive: true });
  fs.cpSync(PROTOCOL_DIR, path.join(root, 'protocol'), { recursive: true });
  fs.cpSync(SDK_DIR, path.join(root, 'plugin-host'), { recursive: true });
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(root, 'node_modules'));
  return path.join(root, 'data');
}

async function startKernel(t: TestContext, dataDir: string, llm?: ScriptedLlm): Promise<TestKernel> {
  const built = new Kernel({
    dataDir,
    builtinDir: path.join(dataDir, '..', 'plugins'),
    env: { HOMEAGENT_SUPERVISOR_POLICY: JSON.stringify(FAST_POLICY), HOMEAGENT_MEMORY_POLICY: QUIET_MEMORY },
    log: pino({ level: 'silent' }),
    ...(llm ? { llm } : {}),
  });
  await built.start();
  let stopping: Promise<void> | undefined;
  const kernel: TestKernel = { kernel: built, dataDir, close: () => (stopping ??= built.stop()) };
  t.after(() => kernel.close());
  assert.equal(kernel.kernel.supervisor.get('timer').status().state, 'ready');
  return kernel;
}

/** Calls a timer tool as the agent would, from a turn of `session`. */
async function tool<R>(k: TestKernel, name: string, args: object, session = 'cli:tester'): Promise<R> {
  const proc = k.kernel.supervisor.get('timer').process;
  assert.ok(proc, 'the timer plugin runs');
  return (await proc.channel.call(ToolInvokeRequest, { name, args, session, callId: 'call_1' })).result as R;
}

const list = async (k: TestKernel) =>
  (await tool<{ timers: { id: string; message: string; fires_at: string; session: string; repeat?: string }[] }>(k, 'timer_list', {})).timers;

describe('the timer plugin', () => {
  it('declares its tools and permissions, and sets, lists and cancels timers', async (t) => {
    const k = await startKernel(t, dataDirWithTimer(t));
    const info = k.kernel.supervisor.get('timer');
    assert.deepEqual(info.declaration?.tools.map((tool) => tool.name).sort(), ['timer_cancel', 'timer_list', 'timer_set']);
    const before = Date.now();
    const set = await tool<{ id: string; fires_at: string }>(k, 'timer_set', { message: 'take the bread out', delay: '10m' }, 'cli:alice');
    assert.match(set.id, /^t-[0-9a-f]{6}$/);
    const firesAt = Date.parse(set.fires_at);
    assert.ok(firesAt >= before + 10 * MINUTE && firesAt <= Date.now() + 10 * MINUTE, set.fires_at);
    const daily = await tool<{ id: string; repeat: string }>(k, 'timer_set', { message: 'water the plants', delay: 3600, repeat: '1d' });
    assert.equal(daily.repeat, '1 d');
    const timers = await list(k);
    assert.deepEqual(
      timers.map((x) => [x.id, x.message, x.session, x.repeat]),
      [
        [set.id, 'take the bread out', 'cli:alice', undefined],
        [daily.id, 'water the plants', 'cli:tester', '1 d'],
      ],
    );
    const cancelled = await tool<{ cancelled: { id: string } }>(k, 'timer_cancel', { id: set.id });
    assert.equal(cancelled.cancelled.id, set.id);
    assert.deepEqual(
      (await list(k)).map((x) => x.id),
      [daily.id],
    );
  });

  it('refuses bad arguments with messages that say what to do', async (t) => {
    const k = await startKernel(t, dataDirWithTimer(t));
    const refusals: [string, object, RegExp][] = [
      ['timer_set', { message: 'x', delay: '10m', at: '2099-01-01T00:00:00Z' }, /give either delay or at, not both/],
      ['timer_set', { message: 'x' }, /give delay \(how long from now/],
      ['timer_set', { message: 'x', delay: 'a while' }, /delay "a while" is not a duration; write it like "10m"/],
      ['timer_set', { message: 'x', at: '2001-01-01T00:00:00Z' }, /is in the past/],
      ['timer_cancel', { id: 't-000000' }, /there is no timer with id "t-000000"; timer_list shows the timers/],
    ];
    for (const [name, args, message] of refusals) {
      const proc = k.kernel.supervisor.get('timer').process;
      assert.ok(proc, 'the timer plugin runs');
      const answer = await proc.channel.call(ToolInvokeRequest, { name, args, session: 'cli:tester', callId: 'call_1' });
      assert.equal(answer.isError, true, `${name} ${JSON.stringify(args)} answered ${JSON.stringify(answer)}`);
      assert.match((answer.result as { error: string }).error, message, `${name} ${JSON.stringify(args)}`);
    }
    assert.deepEqual(await list(k), []);
  });

  it('fires: interrupts the session that set it with "[timer] <message>", which starts a turn', async (t) => {
    const interrupts = watchInterrupts(t);
    const llm = new ScriptedLlm(() => ({ text: 'Your tea is ready!' }));
    const k = await startKernel(t, dataDirWithTimer(t), llm);
    await tool(k, 'timer_set', { message: 'tea is ready', delay: '1s' }, 'kitchen');
    const fired = await waitFor(() => interrupts.find((i) => i.source === 'timer'), { what: 'the timer to fire', timeoutMs: 10_000 });
    assert.deepEqual({ session: fired.session, text: fired.text }, { session: 'kitchen', text: '[timer] tea is ready' });
    await waitFor(() => llm.calls.find((c) => c.request.messages.some((m) => m.content.includes('[timer] tea is ready'))), {
      what: 'the agent to take it up',
      timeoutMs: 10_000,
    });
    assert.deepEqual(await list(k), [], 'a one-shot timer is gone once fired');
    assert.equal(interrupts.filter((i) => i.source === 'timer').length, 1);
  });

  it('keeps its timers across a restart, and fires those missed while homed was down at start, marked late', async (t) => {
    const dataDir = dataDirWithTimer(t);
    const first = await startKernel(t, dataDir);
    const bread = await tool<{ id: string; fires_at: string }>(first, 'timer_set', { message: 'take the bread out', delay: '1h' });
    const plants = await tool<{ id: string; fires_at: string }>(first, 'timer_set', { message: 'water the plants', delay: '2h', repeat: '1d' }, 'cli:bob');
    const configDb = first.kernel.tree.configDb;
    await first.close();

    const second = await startKernel(t, dataDir);
    assert.deepEqual(
      (await list(second)).map((x) => [x.id, x.fires_at]),
      [
        [bread.id, bread.fires_at],
        [plants.id, plants.fires_at],
      ],
    );
    await second.close();

    // homed was down: the bread was due 12 minutes ago, the plants' daily timer three days and 5 minutes ago.
    const now = Date.now();
    const config = ConfigRegistry.open(configDb);
    const stored = config.getValue('timer', 'timers') as Timer[];
    const backdate: Record<string, number> = { [bread.id]: now - 12 * MINUTE, [plants.id]: now - 3 * DAY - 5 * MINUTE };
    config.set(
      'timer',
      'timers',
      stored.map((timer) => ({ ...timer, fires_at: new Date(backdate[timer.id] ?? 0).toISOString() })),
    );
    config.close();

    const interrupts = watchInterrupts(t);
    const third = await startKernel(t, dataDir);
    await waitFor(() => interrupts.filter((i) => i.source === 'timer').length >= 2 || undefined, { what: 'both missed timers to fire', timeoutMs: 10_000 });
    // How late each reads is checked against how late it was, not against one clock reading: on a loaded machine
    // the bread can read `late by 12 min 1 s`, which is as true as `late by 12 min`.
    const elapsed = Date.now() - now;
    const fired = interrupts.filter((i) => i.source === 'timer').map((i) => ({ session: i.session, ...splitLateText(i.text ?? '') }));
    assert.deepEqual(fired.map((f) => [f.session, f.message]).sort(), [
      ['cli:bob', 'water the plants'],
      ['cli:tester', 'take the bread out'],
    ]);
    for (const [message, lateMs] of [
      ['water the plants', 3 * DAY + 5 * MINUTE],
      ['take the bread out', 12 * MINUTE],
    ] as const) {
      const shown = fired.find((f) => f.message === message)!;
      assert.ok(
        shown.fromMs <= lateMs + elapsed && shown.toMs >= lateMs,
        `"${message}" reads late by ${shown.late}, but it was ${lateMs / MINUTE} min late (+ ${elapsed} ms of this test)`,
      );
    }
    const left = await list(third);
    assert.deepEqual(
      left.map((x) => x.id),
      [plants.id],
      'the one-shot is gone, the daily one stays',
    );
    const next = Date.parse(left[0]!.fires_at);
    assert.ok(next > Date.now() && next <= now + DAY, `the daily timer moved on to its next time, not one per missed day: ${left[0]!.fires_at}`);
    // Once the plugin has stopped, whatever it was going to fire has reached the kernel (one ordered pipe).
    await third.close();
    assert.equal(interrupts.filter((i) => i.source === 'timer').length, 2, 'each missed timer fired once');
    const saved = ConfigRegistry.open(configDb);
    t.after(() => saved.close());
    assert.deepEqual(
      (saved.getValue('timer', 'timers') as Timer[]).map((x) => x.id),
      [plants.id],
      'the firing was saved',
    );
  });
});

/** A late timer's text split into its message and the range of lateness its `late by 3 d` / `12 min 1 s` stands for. */
function splitLateText(text: string): { message: string; late: string; fromMs: number; toMs: number } {
  const match = /^\[timer, late by ((\d+) (d|h|min|s)(?: (\d+) (h|min|s))?)\] (.*)$/.exec(text);
  assert.ok(match, `not a late timer's text: ${text}`);
  const unitMs: Record<string, number> = { d: DAY, h: 60 * MINUTE, min: MINUTE, s: 1000 };
  const next: Record<string, string> = { d: 'h', h: 'min', min: 's', s: 's' };
  const [, late, first, firstUnit, second, secondUnit, message] = match as unknown as string[];
  const fromMs = Number(first) * unitMs[firstUnit!]! + (second === undefined ? 0 : Number(second) * unitMs[secondUnit!]!);
  // The text shows two units at most and cuts the smaller: what it leaves out is less than one of the next unit.
  const precision = unitMs[next[secondUnit ?? firstUnit!]!]!;
  return { message: message!, late: late!, fromMs: fromMs - 1000, toMs: fromMs + precision + 1000 };
}
