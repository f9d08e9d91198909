// The backup figures on an idle data dir of 100k memory facts and 10k knowledge chunks: `homectl backup` against
// `tar -c | gzip -1` of the same folder and against `sqlite3 .backup` of its databases; the archive's size against
// the tar.gz's; `homectl restore` against `tar -xzf`; homectl's peak RSS against `node -e 0`'s; and both commands on
// 20k small files, where the cost per file shows.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openConfigDatabase } from '../../kernel/config/database';
import { BACKUP_PLAN, buildBenchDataDir } from './backup-data-dir';
import { REPO_ROOT } from './paths';
import { makeRow, type BenchRow } from './results';
import { median, msSince } from './stats';

const SECTION = `backup (${BACKUP_PLAN.facts / 1000}k memory facts, ${BACKUP_PLAN.chunks / 1000}k knowledge chunks, idle)`;
const HOMECTL = path.join(REPO_ROOT, 'dist', 'plugins', 'cli', 'homectl.js');
const ROUNDS = 3;
const GNU_TIME = '/usr/bin/time';
const MANY_FILES = 20_000;

/** One timed run: wall time, and peak RSS in MB when GNU time is there to tell it. */
interface Run {
  ms: number;
  peakMb: number;
}

/** The section's rows; sync inside (child processes run one at a time), a promise for the bench's step(). */
export function benchBackup(): Promise<BenchRow[]> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ha-bench-backup-'));
  try {
    const dataDir = path.join(scratch, 'data');
    const buildStart = performance.now();
    buildBenchDataDir(dataDir, scratch);
    const databases = listDatabases(dataDir);
    process.stderr.write(
      ` [data dir built in ${(msSince(buildStart) / 1000).toFixed(0)} s: ${mb(folderBytes(dataDir)).toFixed(0)} MB, ${databases.length} databases]`,
    );
    const rows = measure(scratch, dataDir, databases);
    rows.push(...measureManyFiles(scratch));
    return Promise.resolve(rows);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

function measure(scratch: string, dataDir: string, databases: string[]): BenchRow[] {
  const archive = path.join(scratch, 'homectl.tar.gz');
  const tarball = path.join(scratch, 'plain.tar.gz');
  const runs = { backup: [] as Run[], tar: [] as number[], sqlite: [] as number[], restore: [] as Run[], untar: [] as number[], node: [] as Run[] };
  const hasSqlite = spawnSync('sqlite3', ['-version']).status === 0;
  for (let round = 0; round < ROUNDS; round++) {
    fs.rmSync(archive, { force: true });
    runs.backup.push(timed([process.execPath, HOMECTL, '-data', dataDir, 'backup', archive]));
    runs.tar.push(timed(['sh', '-c', `tar -c -C ${q(scratch)} data | gzip -1 > ${q(tarball)}`]).ms);
    if (hasSqlite) runs.sqlite.push(sqliteBackups(scratch, databases));
    const restored = path.join(scratch, `restored-${round}`);
    runs.restore.push(timed([process.execPath, HOMECTL, 'restore', archive, '--data', restored]));
    fs.rmSync(restored, { recursive: true, force: true });
    const untarred = path.join(scratch, `untarred-${round}`);
    fs.mkdirSync(untarred);
    runs.untar.push(timed(['tar', '-xzf', tarball, '-C', untarred]).ms);
    fs.rmSync(untarred, { recursive: true, force: true });
    runs.node.push(timed([process.execPath, '-e', '0']));
  }
  const ms = (list: Run[]): number[] => list.map((run) => run.ms);
  const peak = (list: Run[]): number => Math.max(...list.map((run) => run.peakMb));
  const rows = [makeRow(SECTION, 'homectl backup (median)', median(ms(runs.backup)), 'ms', 'tar -c | gzip -1', median(runs.tar), ROUNDS)];
  if (hasSqlite)
    rows.push(
      makeRow(
        SECTION,
        'homectl backup (median)',
        median(ms(runs.backup)),
        'ms',
        `sqlite3 .backup of the ${databases.length} databases`,
        median(runs.sqlite),
        ROUNDS,
      ),
    );
  else process.stderr.write(' [sqlite3 is not installed: its .backup baseline is left out]');
  rows.push(
    makeRow(SECTION, 'archive size', mb(fs.statSync(archive).size), 'MB', 'tar.gz (gzip -1) size', mb(fs.statSync(tarball).size), 1),
    makeRow(SECTION, 'homectl restore --data (median; reads the archive twice)', median(ms(runs.restore)), 'ms', 'tar -xzf', median(runs.untar), ROUNDS),
    makeRow(SECTION, 'homectl backup peak RSS', peak(runs.backup), 'MB', 'node -e 0', peak(runs.node), ROUNDS),
    makeRow(SECTION, 'homectl restore peak RSS', peak(runs.restore), 'MB', 'node -e 0', peak(runs.node), ROUNDS),
  );
  return rows;
}

/** A data dir of many small files (notes in knowledge/): what each file costs beyond its bytes. */
function measureManyFiles(scratch: string): BenchRow[] {
  const many = path.join(scratch, 'many');
  fs.mkdirSync(path.join(many, 'knowledge'), { recursive: true });
  openConfigDatabase(path.join(many, 'config.db')).close();
  for (let i = 0; i < MANY_FILES; i++)
    fs.writeFileSync(path.join(many, 'knowledge', `note-${i}.md`), `# Note ${i}\n\n${'The heron fishes at dawn by the reed bed. '.repeat(8)}\n`);
  const archive = path.join(scratch, 'many.tar.gz');
  const backups: number[] = [];
  const tars: number[] = [];
  const restores: number[] = [];
  const untars: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    fs.rmSync(archive, { force: true });
    backups.push(timed([process.execPath, HOMECTL, '-data', many, 'backup', archive]).ms);
    tars.push(timed(['sh', '-c', `tar -c -C ${q(scratch)} many | gzip -1 > ${q(path.join(scratch, 'many-plain.tar.gz'))}`]).ms);
    const restored = path.join(scratch, 'many-restored');
    restores.push(timed([process.execPath, HOMECTL, 'restore', archive, '--data', restored]).ms);
    fs.rmSync(restored, { recursive: true, force: true });
    fs.mkdirSync(restored);
    untars.push(timed(['tar', '-xzf', path.join(scratch, 'many-plain.tar.gz'), '-C', restored]).ms);
    fs.rmSync(restored, { recursive: true, force: true });
  }
  const k = `${MANY_FILES / 1000}k`;
  return [
    makeRow(SECTION, `homectl backup, ${k} small files (median)`, median(backups), 'ms', 'tar -c | gzip -1', median(tars), ROUNDS),
    makeRow(SECTION, `homectl restore, ${k} small files (median)`, median(restores), 'ms', 'tar -xzf', median(untars), ROUNDS),
  ];
}

/** Runs a command to its end (under GNU time when it is there, for the peak RSS); throws when it fails. */
function timed(command: string[]): Run {
  const useTime = fs.existsSync(GNU_TIME);
  const [file, ...args] = useTime ? [GNU_TIME, '-f', '%M', ...command] : command;
  const start = performance.now();
  const run = spawnSync(file as string, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const elapsed = msSince(start);
  if (run.status !== 0) throw new Error(`${command.join(' ')} exited ${run.status}: ${run.stderr}`);
  const kb = useTime ? Number(run.stderr.trim().split('\n').at(-1)) : Number.NaN;
  return { ms: elapsed, peakMb: kb / 1024 };
}

/** `sqlite3 DB ".backup COPY"` of each database, one after the other; answers the total time. */
function sqliteBackups(scratch: string, databases: string[]): number {
  const copies = path.join(scratch, 'sqlite-copies');
  fs.mkdirSync(copies, { recursive: true });
  let total = 0;
  for (const [i, db] of databases.entries()) total += timed(['sqlite3', db, `.backup ${q(path.join(copies, `${i}.db`))}`]).ms;
  fs.rmSync(copies, { recursive: true, force: true });
  return total;
}

function listDatabases(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.db'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function folderBytes(dir: string): number {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + fs.statSync(path.join(entry.parentPath, entry.name)).size, 0);
}

const mb = (bytes: number): number => bytes / (1024 * 1024);
const q = (text: string): string => `'${text.replace(/'/g, "'\\''")}'`;
