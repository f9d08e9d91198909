// The kernel's log store: pino's lines parsed into numbered lines, filtered, followed by seq, kept in rotating files
// and read back from them for a --since older than the ring.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import pino from 'pino';
import { KernelLog } from '../../../kernel/logs/kernel-log';
import { LogFiles, LOG_FILE } from '../../../kernel/logs/log-files';
import { createRootLogger } from '../../../kernel/log';

function tempDir(t: TestContext): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'homed-logs-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A pino logger writing only into `store`, at debug. */
function loggerInto(store: KernelLog): pino.Logger {
  return pino({ level: 'debug', base: { pid: 1 }, timestamp: pino.stdTimeFunctions.isoTime }, store);
}

describe('the kernel log', () => {
  it('keeps each line with its level, plugin and fields, numbered in order', async (t) => {
    const store = new KernelLog(path.join(tempDir(t), 'logs'));
    t.after(() => store.close());
    const log = loggerInto(store);
    log.info({ plugin: 'timer', id: 't1', stream: 'sdk' }, 'timer fired');
    log.warn({ session: 'cli:a', ms: 12 }, 'turn failed');
    const { lines, next } = await store.read({});
    assert.equal(lines.length, 2);
    assert.deepEqual(
      lines.map((l) => [l.seq, l.level, l.plugin, l.msg, l.fields]),
      [
        [1, 'info', 'timer', 'timer fired', { id: 't1', stream: 'sdk' }],
        [2, 'warn', undefined, 'turn failed', { session: 'cli:a', ms: 12 }],
      ],
    );
    assert.equal(next, 2);
    assert.ok(Math.abs(lines[0]!.time - Date.now()) < 5000);
  });

  it('filters by plugin, by level and up, and by seq for a follower', async (t) => {
    const store = new KernelLog(undefined);
    const log = loggerInto(store);
    log.debug({ plugin: 'timer' }, 'tick');
    log.info({ plugin: 'timer' }, 'fired');
    log.error({ plugin: 'web' }, 'fetch failed');
    assert.deepEqual(
      (await store.read({ plugin: 'timer' })).lines.map((l) => l.msg),
      ['tick', 'fired'],
    );
    assert.deepEqual(
      (await store.read({ level: 'info' })).lines.map((l) => l.msg),
      ['fired', 'fetch failed'],
    );
    const { next } = await store.read({});
    log.info({ plugin: 'timer' }, 'fired again');
    assert.deepEqual(
      (await store.read({ after: next })).lines.map((l) => l.msg),
      ['fired again'],
    );
    assert.deepEqual((await store.read({ after: (await store.read({})).next })).lines, []);
    assert.deepEqual(
      (await store.read({ limit: 2 })).lines.map((l) => l.msg),
      ['fetch failed', 'fired again'],
    );
    t.diagnostic('a follower sees each line once');
  });

  it('forgets the oldest lines past its ring, and reads them back from the files for an older --since', async (t) => {
    const dir = path.join(tempDir(t), 'logs');
    const store = new KernelLog(dir, 3);
    t.after(() => store.close());
    const log = loggerInto(store);
    for (let i = 1; i <= 6; i++) log.info({ n: i }, `line ${i}`);
    assert.deepEqual(
      (await store.read({})).lines.map((l) => l.msg),
      ['line 4', 'line 5', 'line 6'],
    );
    const all = (await store.read({ since: 0 })).lines.map((l) => l.msg);
    assert.deepEqual(all, ['line 1', 'line 2', 'line 3', 'line 4', 'line 5', 'line 6']);
    assert.equal(fs.statSync(path.join(dir, LOG_FILE)).mode & 0o777, 0o600);
  });

  it('reads many file lines without stalling the loop, skipping files last written before --since', async (t) => {
    const dir = path.join(tempDir(t), 'logs');
    const store = new KernelLog(dir, 10);
    t.after(() => store.close());
    const day = 24 * 3600_000;
    const old = path.join(dir, `${LOG_FILE}.1`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(old, `${JSON.stringify({ level: 30, time: Date.now() - 3 * day, msg: 'three days ago' })}\n`);
    fs.utimesSync(old, new Date(Date.now() - 3 * day), new Date(Date.now() - 3 * day));
    const log = loggerInto(store);
    for (let i = 1; i <= 20_000; i++) log.info({ n: i }, `line ${i}`);
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    const recent = await store.read({ since: Date.now() - day, limit: 5 });
    clearInterval(ticker);
    assert.deepEqual(
      recent.lines.map((l) => l.msg),
      ['line 19996', 'line 19997', 'line 19998', 'line 19999', 'line 20000'],
    );
    assert.ok(turns > 0, 'the loop turned while 20,000 lines were read');
    const all = await store.read({ since: 0, limit: 1 });
    assert.deepEqual(
      all.lines.map((l) => l.msg),
      ['line 20000'],
    );
    assert.deepEqual((await store.read({ since: Date.now() - 4 * day, level: 'info', limit: 20_001 })).lines[0]?.msg, 'three days ago');
  });

  it('rotates its files by size, keeping a bounded number', async (t) => {
    const dir = tempDir(t);
    const files = new LogFiles(dir, { maxBytes: 100, keep: 2 });
    t.after(() => files.close());
    for (let i = 0; i < 20; i++) files.append(`${JSON.stringify({ i, pad: 'x'.repeat(30) })}\n`);
    assert.deepEqual(fs.readdirSync(dir).sort(), [LOG_FILE, `${LOG_FILE}.1`, `${LOG_FILE}.2`]);
    for (const file of files.files()) assert.ok(fs.statSync(file).size <= 100, `${file} is over the size`);
    const kept = files
      .files()
      .flatMap((file) => fs.readFileSync(file, 'utf8').trim().split('\n'))
      .map((l) => (JSON.parse(l) as { i: number }).i);
    assert.deepEqual(
      kept,
      [...kept].sort((a, b) => a - b),
      'oldest file first',
    );
    assert.equal(kept.at(-1), 19);
  });

  it('loses lines, not the kernel, when its folder cannot be written', async (t) => {
    const blocker = path.join(tempDir(t), 'a-file');
    fs.writeFileSync(blocker, '');
    const store = new KernelLog(path.join(blocker, 'logs'));
    const log = loggerInto(store);
    log.info('still logged');
    assert.deepEqual(
      (await store.read({})).lines.map((l) => l.msg),
      ['still logged'],
    );
  });

  it('is fed by the root logger besides stdout, at the logger level', async (t) => {
    const store = new KernelLog(undefined);
    const log = createRootLogger('warn', store);
    t.after(() => log.flush());
    log.info('below the level');
    log.warn({ plugin: 'cli' }, 'kept');
    assert.deepEqual(
      (await store.read({})).lines.map((l) => [l.plugin, l.msg]),
      [['cli', 'kept']],
    );
  });
});
