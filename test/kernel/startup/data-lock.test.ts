// One homed per data dir, with real homed processes: the second one refuses and changes nothing,
// the first keeps serving (its pluginmgr files, its timers), and kill -9 frees the data dir at once.
import assert from 'node:assert/strict';
import Database from '../../../protocol/runtime/internals/sqlite';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { startFakeLlmFor } from '../../fake-llm/server';
import { fakeProviderEnv, pidAlive, runHomedToExit, startHomed, waitFor } from '../../harness/homed';
import { runWaiter } from '../../harness/waiter';
import { childrenOf } from '../proc';

const REMINDER = '[timer] take the bread out';

/** Every entry under `dir` with its kind, size, mode, owner and modification time. */
function listTree(dir: string): Record<string, string> {
  const entries: Record<string, string> = {};
  const walk = (current: string): void => {
    for (const name of fs.readdirSync(current).sort()) {
      const full = path.join(current, name);
      const stat = fs.lstatSync(full);
      const kind = stat.isDirectory() ? 'dir' : stat.isSocket() ? 'socket' : stat.isSymbolicLink() ? 'link' : 'file';
      entries[path.relative(dir, full)] = `${kind} ${stat.size} ${(stat.mode & 0o7777).toString(8)} ${stat.uid} ${stat.mtimeMs}`;
      if (stat.isDirectory()) walk(full);
    }
  };
  walk(dir);
  return entries;
}

/** A process and all its descendants, parents first. */
function processTree(pid: number): number[] {
  return [pid, ...childrenOf(pid).flatMap(processTree)];
}

/** How many times the reminder reached agent.db as the session's input. */
function remindersStored(dataDir: string): number {
  const db = new Database(path.join(dataDir, 'agent.db'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("SELECT COUNT(*) AS n FROM messages WHERE role = 'user' AND instr(content, ?) > 0").get(REMINDER) as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('one homed per data dir', () => {
  it('a second homed exits 1 naming the first and changes nothing; the first keeps its files; its timer fires once; after kill -9 a new homed starts at once', async (t) => {
    const llm = await startFakeLlmFor(t);
    const env = fakeProviderEnv(llm);
    const first = await startHomed({ env });
    t.after(() => first.cleanup());
    const { dataDir } = first;
    const run = path.join(dataDir, 'run');
    assert.equal(fs.readFileSync(path.join(run, 'homed.pid'), 'utf8'), `${first.pid}\n`);

    // A reminder, set through the timer plugin by the model, due a few seconds from now.
    llm.enqueue({ toolCalls: [{ name: 'timer_set', args: { message: 'take the bread out', delay: '3s' } }] }, { text: 'I will remind you.' });
    const said = await runWaiter(['-data', dataDir, '--session', 'cli:lock', '-say', 'remind me to take the bread out']);
    assert.equal(said.code, 0, said.stderr);
    const pluginmgrFiles = ['pluginmgr.port', 'pluginmgr.token'].map((name) => fs.readFileSync(path.join(run, name), 'utf8'));

    // The first homed and its plugins stand still, so any change in the data dir would be the second's.
    const frozen = processTree(first.pid);
    assert.ok(frozen.length >= 4, `homed and its plugins: ${frozen.join(', ')}`);
    for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    let second;
    let before;
    let after;
    try {
      before = listTree(dataDir);
      second = await runHomedToExit(dataDir, { env });
      after = listTree(dataDir);
    } finally {
      for (const pid of frozen) process.kill(pid, 'SIGCONT');
    }
    assert.equal(second.code, 1, second.stderr);
    assert.equal(second.stdout, '');
    assert.equal(
      second.stderr,
      `homed: another homed (pid ${first.pid}) is serving ${dataDir}: stop it first (systemctl stop homed, or kill ${first.pid}), ` +
        'or start this one with -data on another folder\n',
    );
    assert.deepEqual(after, before, 'the second homed created, changed or removed nothing in the data dir');
    assert.ok(Object.keys(before).length > 10, 'the listing covers the data tree');

    // The first still serves: same pluginmgr port and token files, and the reminder fires once.
    assert.deepEqual(
      ['pluginmgr.port', 'pluginmgr.token'].map((name) => fs.readFileSync(path.join(run, name), 'utf8')),
      pluginmgrFiles,
    );
    llm.setDefault({ text: 'Time to take the bread out!' });
    await waitFor(() => llm.requests.some((r) => JSON.stringify(r.body).includes(REMINDER)) || undefined, {
      what: 'the reminder to reach the model',
      timeoutMs: 30_000,
    });
    await waitFor(() => remindersStored(dataDir) >= 1 || undefined, { what: 'the reminder in agent.db', timeoutMs: 10_000 });
    assert.ok(pidAlive(first.pid));

    // kill -9: the OS drops the lock with the process, and the next homed starts without waiting.
    await first.kill9();
    const third = await startHomed({ dataDir, env, timeoutMs: 60_000 });
    t.after(() => third.cleanup());
    assert.equal(fs.readFileSync(path.join(run, 'homed.pid'), 'utf8'), `${third.pid}\n`);
    llm.setDefault({ text: 'Nothing else.' });
    const later = await runWaiter(['-data', dataDir, '--session', 'cli:lock', '-say', 'anything else?']);
    assert.equal(later.code, 0, later.stderr);
    assert.equal(remindersStored(dataDir), 1, 'the reminder is stored once');
    assert.equal(await third.stop(), 0);
    assert.equal(fs.existsSync(path.join(run, 'homed.pid')), false, 'a homed that stops removes its pid file');
    assert.equal(fs.existsSync(path.join(run, 'homed.lock')), true, 'the lock file stays for the next homed');
  });

  it('a homed that cannot get the lock names the holder even before the holder wrote its pid file', async (t) => {
    if (!fs.existsSync('/proc/locks')) return t.skip('no /proc/locks here: the holder is named by its pid file alone');
    const first = await startHomed();
    t.after(() => first.cleanup());
    fs.rmSync(path.join(first.dataDir, 'run', 'homed.pid'));
    const second = await runHomedToExit(first.dataDir);
    assert.equal(second.code, 1);
    assert.match(second.stderr, new RegExp(`^homed: another homed \\(pid ${first.pid}\\) is serving `));
    assert.equal(fs.existsSync(path.join(first.dataDir, 'run', 'homed.pid')), false, 'the second wrote no pid file');
  });
});
