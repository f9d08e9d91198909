// Section `packages`: the installer on a 1 MiB and a 30 MiB package beside `unzip -q` of the same file, the
// refusal of zbsm.zip (time, and bytes written before it), and an untrusted plugin's cold start beside a trusted one's.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import pino from 'pino';
import { Kernel } from '../../kernel/kernel';
import { DEFAULT_INSTALL_LIMITS, InstallError, installPackage } from '../../kernel/packages';
import { findTool } from '../../kernel/supervisor/sandbox';
import { packPlugin } from '../pack/pack';
import { FIXTURE_PLUGINS, REPO_ROOT } from './paths';
import { makeRow, type BenchRow } from './results';
import { median, msSince, withDeadline } from './stats';

export const PACKAGES_PLAN = { installRounds: { small: 7, large: 5 }, refuseRounds: 7, coldStartRounds: 7 };

const SECTION = 'packages';
const MIB = 1024 * 1024;
/** The quoted-overlap bomb from the shared corpus, beside the repository; absent in a user's clone. */
const ZBSM = path.resolve(REPO_ROOT, '..', 'shared', 'corpus', 'zips', 'bombs', 'zbsm.zip');

/** Runs the section's three parts in a throw-away folder; a missing tool or corpus file skips its part with a note. */
export async function benchPackages(plan = PACKAGES_PLAN): Promise<BenchRow[]> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'homed-bench-packages-'));
  // Searchable by other uids: as root the sandboxed plugin runs under a uid of its own, which must reach its folders.
  fs.chmodSync(scratch, 0o711);
  try {
    const unzip = findTool('unzip');
    if (!unzip) note('unzip is not installed: the install figures have no baseline');
    const rows = [
      ...(await benchInstall(scratch, 'bench-small', 1, plan.installRounds.small, unzip)),
      ...(await benchInstall(scratch, 'bench-large', 30, plan.installRounds.large, unzip)),
    ];
    if (fs.existsSync(ZBSM)) rows.push(...(await benchRefuseBomb(scratch, plan.refuseRounds, unzip)));
    else note(`${ZBSM} is absent (the shared corpus is not beside this checkout): no zbsm.zip figures`);
    rows.push(...(await benchColdStart(scratch, plan.coldStartRounds)));
    return rows;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** Install of a package with `mib` MiB of incompressible assets vs `unzip -q` of the same file, rounds interleaved. */
async function benchInstall(scratch: string, name: string, mib: number, rounds: number, unzip: string | null): Promise<BenchRow[]> {
  const file = await buildPackage(scratch, name, mib);
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const pluginsDir = fs.mkdtempSync(path.join(scratch, 'plugins-'));
    let start = performance.now();
    await installPackage(file, { pluginsDir, builtinNames: [] });
    ours.push(msSince(start));
    fs.rmSync(pluginsDir, { recursive: true, force: true });
    if (!unzip) continue;
    const target = fs.mkdtempSync(path.join(scratch, 'unzip-'));
    start = performance.now();
    await run(unzip, ['-q', file, '-d', target]);
    theirs.push(msSince(start));
    fs.rmSync(target, { recursive: true, force: true });
  }
  const size = (fs.statSync(file).size / MIB).toFixed(1);
  return [makeRow(SECTION, `install a ${mib} MiB package (${size} MiB .hmap)`, median(ours), 'ms', 'unzip -q', median(theirs), ours.length)];
}

/** A plugin folder with `mib` MiB of random bytes in files of at most 15 MiB (under the per-entry limit), packed. */
async function buildPackage(scratch: string, name: string, mib: number): Promise<string> {
  const dir = path.join(scratch, 'src', name);
  fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'plugin.json'),
    JSON.stringify({ name, version: '1.0.0', entry: 'index.mjs', description: `${mib} MiB of incompressible assets` }),
  );
  fs.writeFileSync(path.join(dir, 'index.mjs'), 'export default { tools: {} };\n');
  for (let left = mib, part = 0; left > 0; left -= 15, part++) {
    fs.writeFileSync(path.join(dir, 'assets', `blob-${part}.bin`), randomBytes(Math.min(left, 15) * MIB));
  }
  return (await packPlugin(dir, path.join(scratch, 'hmap'))).file;
}

/**
 * Time to refuse zbsm.zip, and the file data written meanwhile: write_bytes of /proc/self/io (pages of files this
 * process dirtied; wchar would count libuv's eventfd wake-ups too). The probe is first checked on 1 MiB written
 * on purpose, because a file system that does not account it (tmpfs) would read 0 whatever happened.
 */
async function benchRefuseBomb(scratch: string, rounds: number, unzip: string | null): Promise<BenchRow[]> {
  const probeWorks = calibrateWriteBytes(scratch);
  if (!probeWorks) note('write_bytes in /proc/self/io does not count writes here: no bytes-written figure');
  const times: number[] = [];
  const listed: number[] = [];
  let written = 0;
  let refusal = '';
  for (let round = 0; round < rounds; round++) {
    const pluginsDir = fs.mkdtempSync(path.join(scratch, 'plugins-'));
    const before = readWriteBytes();
    const start = performance.now();
    try {
      await installPackage(ZBSM, { pluginsDir, builtinNames: [] });
      throw new Error('zbsm.zip was installed: the installer must refuse it');
    } catch (error) {
      if (!(error instanceof InstallError)) throw error;
      times.push(msSince(start));
      written = Math.max(written, readWriteBytes() - before);
      refusal = `${error.kind} ${error.rule}`;
    }
    const left = fs.readdirSync(pluginsDir);
    if (left.length > 0) throw new Error(`refusing zbsm.zip left ${left.join(', ')} in the plugins folder`);
    fs.rmSync(pluginsDir, { recursive: true, force: true });
    if (!unzip) continue;
    const listStart = performance.now();
    await run(unzip, ['-l', ZBSM]);
    listed.push(msSince(listStart));
  }
  const limitMib = DEFAULT_INSTALL_LIMITS.maxTotalBytes / MIB;
  const rows = [makeRow(SECTION, `refuse zbsm.zip (${refusal})`, median(times), 'ms', 'unzip -l (list only)', median(listed), times.length)];
  if (probeWorks) {
    rows.push(
      makeRow(SECTION, '  file data written before refusing (MiB)', written / MIB, 'MB', 'total-size limit', limitMib, times.length, {
        kind: 'value-at-most',
        max: limitMib,
      }),
    );
  }
  return rows;
}

/** Whether write_bytes grows by at least 1 MiB when 1 MiB is written and synced in `dir`. */
function calibrateWriteBytes(dir: string): boolean {
  const file = path.join(dir, 'calibrate.bin');
  const before = readWriteBytes();
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, randomBytes(MIB));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
  }
  return readWriteBytes() - before >= MIB;
}

/** File data this process has dirtied so far (write_bytes in /proc/self/io); 0 where /proc is not there. */
function readWriteBytes(): number {
  try {
    const match = /^write_bytes:\s*(\d+)$/m.exec(fs.readFileSync('/proc/self/io', 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/**
 * The same plugin (the `good` fixture) as a third-party plugin behind the sandbox walls and as a trusted
 * built-in, under one in-process kernel: stop, then start to ready, rounds interleaved.
 */
async function benchColdStart(scratch: string, rounds: number): Promise<BenchRow[]> {
  const dataDir = fs.mkdtempSync(path.join(scratch, 'data-'));
  copyFixtureAs(path.join(dataDir, 'plugins', 'cold-sandboxed'));
  copyFixtureAs(path.join(dataDir, 'builtins', 'cold-trusted'));
  const kernel = new Kernel({ dataDir, builtinDir: path.join(dataDir, 'builtins'), env: {}, log: pino({ level: 'silent' }) });
  await withDeadline(kernel.start(), 60_000, 'the bench kernel start');
  const times: Record<string, number[]> = { 'cold-sandboxed': [], 'cold-trusted': [] };
  try {
    for (let round = 0; round < rounds; round++) {
      for (const name of Object.keys(times)) {
        await kernel.supervisor.control(name, 'stop');
        const start = performance.now();
        await withDeadline(kernel.supervisor.control(name, 'start'), 30_000, `${name} start`);
        const ms = msSince(start);
        const plugin = kernel.supervisor.get(name);
        if (plugin.state !== 'ready') throw new Error(`${name} did not get ready: ${plugin.detail ?? plugin.state}`);
        times[name]?.push(ms);
      }
    }
    const walls = (kernel.supervisor.get('cold-sandboxed').sandbox?.walls ?? []).filter((w) => w.active).map((w) => w.wall);
    note(`cold start: the sandboxed plugin ran behind ${walls.join(', ') || 'no walls'}`);
  } finally {
    await kernel.stop();
  }
  const sandboxed = times['cold-sandboxed'] ?? [];
  const trusted = times['cold-trusted'] ?? [];
  return [makeRow(SECTION, 'untrusted plugin cold start, start to ready', median(sandboxed), 'ms', 'same plugin trusted', median(trusted), sandboxed.length)];
}

/** Copies the `good` fixture to `dir`, its manifest named after the folder. */
function copyFixtureAs(dir: string): void {
  fs.cpSync(path.join(FIXTURE_PLUGINS, 'good'), dir, { recursive: true });
  const file = path.join(dir, 'plugin.json');
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  fs.writeFileSync(file, JSON.stringify({ ...manifest, name: path.basename(dir) }));
}

/** Runs a command to its end; rejects on a non-zero exit. */
function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with code ${code}`))));
  });
}

function note(text: string): void {
  process.stderr.write(`\nbench: packages: ${text}`);
}
