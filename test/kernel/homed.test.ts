// Rung 3 at the edge: the real homed process, its plugin processes, signals and sockets.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { FAST_POLICY, FIXTURE_PLUGINS, REPO_ROOT, pidAlive } from './kernel-harness';
import { waitFor } from '../harness/wait';
import { childrenOf, listeningSockets } from './proc';

const HOMED = path.join(REPO_ROOT, 'dist', 'kernel', 'main.js');

interface Homed {
  proc: ChildProcess;
  pid: number;
  dataDir: string;
  output: string[];
}

const running: Homed[] = [];

/** CPU time a spinning process must add (clock ticks, 10 ms each) before it counts as in its loop. */
const SPIN_TICKS = 20;

/** A process's command line, as its title may have rewritten it; '' once it is gone. */
function cmdlineOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** User plus system CPU time a process has used, in clock ticks; -1 once it is gone. */
function cpuTicksOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return -1;
  }
}

async function startHomed(plugins: string[], policy: object = FAST_POLICY, until = 'homed ready'): Promise<Homed> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'homed-e2e-'));
  for (const name of plugins) fs.cpSync(path.join(FIXTURE_PLUGINS, name), path.join(dataDir, 'plugins', name), { recursive: true });
  const proc = spawn(process.execPath, [HOMED, '-data', dataDir], {
    env: { ...process.env, HOMEAGENT_SUPERVISOR_POLICY: JSON.stringify(policy) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const homed: Homed = { proc, pid: proc.pid!, dataDir, output: [] };
  running.push(homed);
  proc.stdout!.setEncoding('utf8').on('data', (chunk: string) => homed.output.push(...chunk.split('\n').filter(Boolean)));
  proc.stderr!.setEncoding('utf8').on('data', (chunk: string) => homed.output.push(chunk));
  await waitFor(() => homed.output.some((line) => line.includes(`"msg":"${until}"`)), { what: until, timeoutMs: 20_000 }).catch((error: Error) => {
    throw new Error(`${error.message}\n${homed.output.join('\n')}`);
  });
  return homed;
}

/** How homed ended, once its output is read to the end too ('exit' can come before the last lines are read). */
function exitOf(proc: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  const exited = proc.exitCode !== null || proc.signalCode !== null;
  if (exited && proc.stdout?.destroyed !== false && proc.stderr?.destroyed !== false) return Promise.resolve({ code: proc.exitCode, signal: proc.signalCode });
  return new Promise((resolve) => proc.once('close', (code, signal) => resolve({ code, signal })));
}

afterEach(async () => {
  for (const homed of running.splice(0)) {
    if (pidAlive(homed.pid)) {
      homed.proc.kill('SIGKILL');
      await exitOf(homed.proc);
    }
    fs.rmSync(homed.dataDir, { recursive: true, force: true });
  }
});

describe('homed', () => {
  test('after kill -9 of homed no plugin process is left within 5 s, even one spinning in while(true)', async () => {
    const homed = await startHomed(['good', 'spin-at-start', 'never-initialize'], { ...FAST_POLICY, handshakeMs: 60_000 }, 'homed starting');
    const plugins = await waitFor(
      () => {
        const pids = childrenOf(homed.pid);
        return pids.length >= 4 && pids;
      },
      { what: 'three plugin processes' },
    );
    // spin-at-start is in its loop once its CPU time keeps growing after it took its title (its event loop is dead).
    const spinner = await waitFor(() => childrenOf(homed.pid).find((pid) => cmdlineOf(pid).startsWith('homeagent-plugin:spin-at-start')), {
      what: 'spin-at-start to take its title',
      timeoutMs: 20_000,
    });
    if (!plugins.includes(spinner)) plugins.push(spinner);
    const ticksAtTitle = cpuTicksOf(spinner);
    await waitFor(() => cpuTicksOf(spinner) >= ticksAtTitle + SPIN_TICKS, { what: `spin-at-start to spin for ${SPIN_TICKS} clock ticks`, timeoutMs: 20_000 });
    homed.proc.kill('SIGKILL');
    await exitOf(homed.proc);
    await waitFor(() => plugins.every((pid) => !pidAlive(pid)), { what: 'every plugin process to be gone', timeoutMs: 5000 });
  });

  test('SIGTERM stops every plugin in order and homed exits 0 within its deadline', async () => {
    const homed = await startHomed(['good', 'needs-good', 'ignore-sigterm']);
    const plugins = await waitFor(
      () => {
        const pids = childrenOf(homed.pid);
        return pids.length >= 3 && pids;
      },
      { what: 'plugin processes' },
    );
    const started = Date.now();
    homed.proc.kill('SIGTERM');
    const exit = await exitOf(homed.proc);
    const took = Date.now() - started;
    assert.equal(exit.code, 0, homed.output.join('\n'));
    const { requestMs, killGraceMs } = FAST_POLICY.shutdown;
    assert.ok(took < 3 * (requestMs + 2 * killGraceMs) + 3000, `took ${took} ms`);
    for (const pid of plugins) assert.equal(pidAlive(pid), false, `plugin pid ${pid} is gone`);
    assert.ok(homed.output.some((line) => line.includes('"msg":"homed stopped"')));
  });

  test('the kernel process holds no listening socket of any kind, while a plugin of it does', async () => {
    const homed = await startHomed(['good']);
    const plugin = await waitFor(() => childrenOf(homed.pid)[0], { what: 'a plugin process' });
    const socketPath = path.join(homed.dataDir, 'run', 'probe.sock');
    // Prove the probe sees listeners: a listening socket in this test process is found.
    const server = net.createServer().listen(socketPath);
    await new Promise((resolve) => server.once('listening', resolve));
    assert.ok(listeningSockets(process.pid).some((s) => s.includes('probe.sock')));
    server.close();
    assert.deepEqual(listeningSockets(homed.pid), []);
    assert.ok(pidAlive(plugin));
  });

  test('creates the whole data tree on first start', async () => {
    const homed = await startHomed([]);
    for (const dir of ['plugins', 'plugin-data', 'memory/text', 'memory/documents', 'knowledge', 'run']) {
      assert.ok(fs.statSync(path.join(homed.dataDir, dir)).isDirectory(), `${dir} exists`);
    }
    assert.equal(fs.statSync(path.join(homed.dataDir, 'run')).mode & 0o777, 0o700);
    assert.equal(fs.readFileSync(path.join(homed.dataDir, 'run', 'homed.pid'), 'utf8'), `${homed.pid}\n`);
    assert.ok(fs.statSync(path.join(homed.dataDir, 'run', 'homed.lock')).isFile());
    assert.ok(fs.existsSync(path.join(homed.dataDir, 'config.db')));
  });
});
