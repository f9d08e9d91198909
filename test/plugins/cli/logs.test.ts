// homectl logs and homectl usage against a real homed: a timer firing seen by `logs -f --plugin timer`, who changed a
// setting or a plugin, plugin fields as JSON fields, the log files, and token usage counted per provider and model.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { callOnce } from '../../../plugins/cli/client';
import { TimerApi, type KernelLogLine, type UsageRow } from '../../../protocol';
import { startFakeLlmFor } from '../../fake-llm/server';
import { HOMECTL_MAIN, cleanEnv, fakeProviderEnv, runHomectl, startHomed } from '../../harness/homed';
import { allowTools } from '../../harness/approvals';
import { waitFor } from '../../harness/wait';
import { runWaiter } from '../../harness/waiter';

function jsonLines(text: string): KernelLogLine[] {
  return text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as KernelLogLine);
}

describe('homectl logs', () => {
  it('-f --plugin timer prints the timer firing as it happens, one line with its fields', async (t) => {
    const llm = await startFakeLlmFor(t);
    const homed = await startHomed({ env: fakeProviderEnv(llm) });
    t.after(() => homed.cleanup());
    const follower = spawn(process.execPath, [HOMECTL_MAIN, '--socket', homed.socket, 'logs', '-f', '--plugin', 'timer', '--since', '1h'], {
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    t.after(() => {
      follower.kill('SIGKILL');
    });
    let out = '';
    follower.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
    await waitFor(() => out.includes('timers loaded'), { what: 'the earlier timer lines', timeoutMs: 10_000 });
    llm.enqueue({ text: 'time to stretch' });
    await callOnce(homed.socket, TimerApi.Set, { session: 'cli:logs', message: 'stretch', delay: '1s' });
    const line = await waitFor(() => out.split('\n').find((l) => l.includes('timer fired')), { what: 'the timer fired line', timeoutMs: 15_000 });
    assert.match(line, /^\d{4}-\d\d-\d\dT[\d:.]+Z INFO  \[timer\] timer fired id=\S+ session=cli:logs lateMs=\d+$/);
    assert.ok(!out.includes('[cli]') && !out.includes('homed ready'), `only the timer's lines:\n${out}`);
  });

  it('logs who changed a setting and a plugin, keeps plugin fields as fields, and writes its files under core.log.path', async (t) => {
    const homed = await startHomed();
    t.after(() => homed.cleanup());
    for (const args of [
      ['config', 'set', 'core.log.level', 'debug'],
      ['plugins', 'disable', 'timer'],
      ['plugins', 'enable', 'timer'],
    ]) {
      const done = await runHomectl(args, { socket: homed.socket });
      assert.equal(done.code, 0, done.stderr);
    }
    const read = await runHomectl(['logs', '--json', '--lines', '2000'], { socket: homed.socket });
    assert.equal(read.code, 0, read.stderr);
    const lines = jsonLines(read.stdout);
    const setting = lines.find((l) => l.msg === 'setting core:core.log.level changed');
    assert.deepEqual(setting?.fields, { by: 'cli', scope: 'core', key: 'core.log.level', value: 'debug' });
    const disabled = lines.find((l) => l.msg.startsWith('plugin timer: disable'));
    assert.equal(disabled?.fields?.['by'], 'cli');
    assert.ok(
      lines.some((l) => l.msg === 'plugin timer: enable, now ready'),
      'the enable line',
    );
    const loaded = lines.filter((l) => l.plugin === 'timer' && l.msg === 'timers loaded');
    assert.ok(loaded.length >= 1);
    assert.equal(loaded[0]?.fields?.['count'], 0, 'the plugin field is a JSON field, not text in the message');
    const warnOnly = jsonLines((await runHomectl(['logs', '--json', '--level', 'warn'], { socket: homed.socket })).stdout);
    assert.ok(warnOnly.every((l) => l.level === 'warn' || l.level === 'error'));
    const file = path.join(homed.dataDir, 'logs', 'homed.log');
    assert.match(fs.readFileSync(file, 'utf8'), /"msg":"setting core:core\.log\.level changed"/);
    const bad = await runHomectl(['logs', '--since', 'yesterdayish'], { socket: homed.socket });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--since takes a time back from now/);
  });
});

describe('the lines of a turn', () => {
  it('a tool call is one line with its plugin and duration; the turn is one line with its tokens and outcome', async (t) => {
    const llm = await startFakeLlmFor(t);
    const homed = await startHomed({ env: fakeProviderEnv(llm) });
    t.after(() => homed.cleanup());
    await allowTools(homed.socket, ['exec']);
    llm.enqueue(
      { toolCalls: [{ name: 'exec', args: { command: 'echo hi' } }], usage: { input: 50, output: 5 } },
      { text: 'said hi', usage: { input: 70, output: 3 } },
    );
    const said = await runWaiter(['--socket', homed.socket, '--session', 'cli:lines', '-say', 'say hi']);
    assert.equal(said.code, 0, said.stderr);
    const lines = jsonLines((await runHomectl(['logs', '--json', '--lines', '2000'], { socket: homed.socket })).stdout);
    const calls = lines.filter((l) => l.fields?.['tool'] === 'exec');
    assert.equal(calls.length, 1, 'one line for the one call');
    assert.match(calls[0]!.msg, /^tool exec ok after \d+ ms$/);
    assert.equal(calls[0]!.plugin, 'exec');
    assert.equal(typeof calls[0]!.fields?.['ms'], 'number');
    const turn = lines.find((l) => l.fields?.['session'] === 'cli:lines' && l.msg.startsWith('turn '));
    assert.ok(turn, 'the turn line');
    assert.match(turn.msg, /^turn done after \d+ ms, 120 tokens in, 8 out: exec \d+ ms ok$/);
    assert.deepEqual([turn.fields?.['source'], turn.fields?.['outcome'], turn.fields?.['requests']], ['cli', 'done', 2]);
    const human = await runHomectl(['logs', '--plugin', 'exec'], { socket: homed.socket });
    assert.match(human.stdout, /INFO  \[exec\] tool exec ok after \d+ ms subsystem=agent session=cli:lines tool=exec ms=\d+ outcome=ok/);
  });
});

describe('homectl usage', () => {
  it('counts requests and tokens per provider and model per day', async (t) => {
    const llm = await startFakeLlmFor(t);
    const homed = await startHomed({ env: fakeProviderEnv(llm) });
    t.after(() => homed.cleanup());
    llm.enqueue({ text: 'one', usage: { input: 120, output: 7 } }, { text: 'two', usage: { input: 200, output: 9 } });
    for (const text of ['first', 'second']) {
      const said = await runWaiter(['--socket', homed.socket, '-say', text]);
      assert.equal(said.code, 0, said.stderr);
    }
    const read = await runHomectl(['usage', '--json'], { socket: homed.socket });
    assert.equal(read.code, 0, read.stderr);
    const rows = JSON.parse(read.stdout) as UsageRow[];
    assert.equal(rows.length, 1);
    assert.deepEqual(
      { ...rows[0], day: '' },
      { day: '', provider: 'main', model: 'fake-model', requests: 2, inputTokens: 320, outputTokens: 16, unreported: 0 },
    );
    assert.equal(rows[0]?.day, new Date().toISOString().slice(0, 10));
    const table = await runHomectl(['usage'], { socket: homed.socket });
    assert.match(table.stdout, /^DAY\s+PROVIDER\s+MODEL\s+REQUESTS\s+TOKENS IN\s+TOKENS OUT\n/);
    assert.match(table.stdout, /\ntotal\s+2\s+320\s+16\n?$/);
  });
});
