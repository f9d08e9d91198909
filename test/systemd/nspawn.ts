// A real systemd as PID 1 of a systemd-nspawn container, for tests of homed as a service. The machine these
// tests run on need not be booted by systemd: in a private mount namespace a tmpfs hides the host's /run/systemd
// and / is bound (not recursively: nspawn refuses a tree that brings /dev along) onto a temp folder, which
// nspawn boots with a throw-away overlay (--volatile=overlay: every write vanishes at poweroff), no network but
// a loopback, no D-Bus registration (--register=no --keep-unit) and the checkout bound read-only. Commands run
// inside with nsenter. Known limits there: IPAddressDeny= is enforced only with SYSTEMD_SECCOMP=0, and cgroup v1
// hosts keep MemoryMax=/TasksMax=/CPUQuota= from being enforced (the tests rely on none of them).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { waitFor } from '../harness/wait';

/** What a command inside the container said. */
export interface InsideResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface RunInsideOptions {
  /** Run as this user (with its groups) instead of root. */
  user?: string;
  /** Working directory inside (default /). */
  cwd?: string;
  timeoutMs?: number;
  env?: Record<string, string>;
}

/** A booted container. */
export interface Container {
  readonly name: string;
  /** The container's PID 1, as the host sees it. */
  readonly leader: number;
  /** Where the checkout is inside. */
  readonly checkout: string;
  /** Runs a command inside, to its end. */
  run(argv: string[], options?: RunInsideOptions): Promise<InsideResult>;
  /** Unit properties from `systemctl show`. */
  show(unit: string, properties: string[]): Promise<Record<string, string>>;
  /** What the console printed so far (boot messages), for a failure's message. */
  console(): string;
  /** Powers the container off and waits until no process of it is left. */
  poweroff(): Promise<void>;
}

const INSIDE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Folders a booted container mounts its own file systems on, hiding what the host has there. */
const CONTAINER_OWN_MOUNTS = ['/tmp', '/var/tmp', '/run', '/dev/shm'];

/** Why a container cannot be booted here, or null when it can. */
export function nspawnProblem(): string | null {
  if (process.getuid?.() !== 0) return 'systemd-nspawn needs root';
  for (const tool of ['systemd-nspawn', 'unshare', 'nsenter', 'mount']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `${tool} is not installed (apt-get install systemd-container util-linux)`;
  }
  if (!fs.existsSync('/lib/systemd/systemd') && !fs.existsSync('/usr/lib/systemd/systemd')) return 'systemd is not installed (apt-get install systemd)';
  // The container's systemd mounts these anew, so a node that lives under one is not there for homed to run on.
  const node = fs.realpathSync(process.execPath);
  const hidden = CONTAINER_OWN_MOUNTS.find((dir) => node.startsWith(`${dir}/`));
  if (hidden) return `node (${node}) lives under ${hidden}, which the container mounts anew: run these tests with a node installed elsewhere`;
  return null;
}

/** Boots a container with `checkout` bound read-only at `mountAt`; resolves once its boot is done (running or degraded). */
export async function bootContainer(options: { checkout: string; mountAt: string; name?: string; timeoutMs?: number }): Promise<Container> {
  const name = options.name ?? `ha-test-${process.pid}`;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'nspawn-root-'));
  const script = [
    'set -e',
    'mount -t tmpfs tmpfs /run/systemd',
    `mount --bind / ${root}`,
    `exec systemd-nspawn -D ${root} --volatile=overlay --boot --register=no --keep-unit --private-network --console=read-only ` +
      `-M ${name} --bind-ro=${options.checkout}:${options.mountAt}`,
  ].join('\n');
  // The nspawn process is the one unshare execs: its pid is the child's pid.
  const nspawn = spawn('unshare', ['--mount', '--propagation', 'private', '--', 'sh', '-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  nspawn.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  nspawn.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => nspawn.once('exit', () => resolve()));
  let leader = 0;
  try {
    await waitFor(
      () => {
        leader = childOf(nspawn.pid ?? -1);
        return nspawn.exitCode !== null || (leader > 0 && readComm(leader) === 'systemd');
      },
      { what: 'the container to start systemd', timeoutMs: options.timeoutMs ?? 60_000 },
    );
    if (nspawn.exitCode !== null) throw new Error(`systemd-nspawn ended (code ${nspawn.exitCode}) before the container booted:\n${output.slice(-3000)}`);
    // A test process that dies without powering off must not leave a container behind: killing its PID 1 ends its
    // whole pid namespace.
    const bootedLeader = leader;
    const killOnExit = (): void => {
      try {
        process.kill(bootedLeader, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    process.on('exit', killOnExit);
    void exited.then(() => process.off('exit', killOnExit));
    const container = makeContainer(name, leader, options.mountAt, nspawn, exited, () => output, root);
    // systemctl cannot connect until PID 1 has made its private socket; then --wait waits for the boot to end.
    const boot = await waitFor(
      async () => {
        const state = await container.run(['systemctl', 'is-system-running', '--wait'], { timeoutMs: options.timeoutMs ?? 120_000 });
        return /Failed to connect/.test(state.stderr) ? null : state;
      },
      { what: "systemd's socket in the container", timeoutMs: options.timeoutMs ?? 60_000, intervalMs: 100 },
    );
    if (!/^(running|degraded)/.test(boot.stdout.trim())) {
      await container.poweroff();
      throw new Error(`the container did not finish booting (${boot.stdout.trim() || boot.stderr.trim()}):\n${output.slice(-3000)}`);
    }
    return container;
  } catch (error) {
    if (nspawn.exitCode === null) nspawn.kill('SIGKILL');
    await exited;
    fs.rmSync(root, { recursive: true, force: true });
    throw error;
  }
}

function makeContainer(
  name: string,
  leader: number,
  checkout: string,
  nspawn: ChildProcess,
  exited: Promise<void>,
  output: () => string,
  root: string,
): Container {
  const run = (argv: string[], options: RunInsideOptions = {}): Promise<InsideResult> => {
    const asUser = options.user ? ['setpriv', `--reuid=${options.user}`, `--regid=${options.user}`, '--init-groups', '--'] : [];
    const env = { PATH: INSIDE_PATH, HOME: options.user ? `/home/${options.user}` : '/root', LANG: 'C.UTF-8', ...options.env };
    const envArgs = Object.entries(env).map(([key, value]) => `${key}=${value}`);
    // -w alone takes PID 1's folder inside; nsenter's --wd=DIR would open DIR on the host. env -C moves inside.
    const args = ['-t', String(leader), '-a', '-w', '--', 'env', '-i', '-C', options.cwd ?? '/', ...envArgs, ...asUser, ...argv];
    return new Promise((resolve) => {
      // A process group of its own: a signal sent inside to "group 0" must not reach the test.
      const child = spawn('nsenter', args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: options.timeoutMs ?? 60_000, killSignal: 'SIGKILL', detached: true });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.on('error', (error) => resolve({ status: null, stdout, stderr: `${stderr}${error.message}` }));
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
  };
  let off: Promise<void> | undefined;
  return {
    name,
    leader,
    checkout,
    run,
    async show(unit, properties) {
      const shown = await run(['systemctl', 'show', unit, ...properties.map((p) => `--property=${p}`)]);
      return Object.fromEntries(
        shown.stdout
          .split('\n')
          .filter((line) => line.includes('='))
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      );
    },
    console: output,
    poweroff() {
      off ??= (async () => {
        if (nspawn.exitCode === null) await run(['systemctl', 'poweroff', '--no-block'], { timeoutMs: 10_000 });
        const timer = setTimeout(() => nspawn.kill('SIGKILL'), 30_000);
        await exited;
        clearTimeout(timer);
        fs.rmSync(root, { recursive: true, force: true });
      })();
      return off;
    },
  };
}

/** The first child of a process (from /proc/PID/task/PID/children), or 0. */
function childOf(pid: number): number {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0] ?? 0) || 0;
  } catch {
    return 0;
  }
}

function readComm(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}
