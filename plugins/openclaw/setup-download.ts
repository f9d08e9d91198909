// The `download` install option: fetched within the deadline and size cap into a hidden file of the tools folder,
// refused unless its SHA-256 is the one the skill gives, then unpacked (tar for tar archives, unzip for zip) or kept
// as an executable file, in a staging folder that then replaces the skill's tools folder (or its targetDir).
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatBytes } from '../../protocol/format';
import { badValue } from './errors';
import { archiveTypeOf, shouldExtract } from './install-options';
import { downloadTarget } from './download-target';
import type { InstallSpec } from './skills/types';
import { runInstaller, type InstallerOptions, type InstallerRun } from './run-installer';
import { findExecutable } from '../../protocol/runtime/executables';

export interface DownloadJob {
  spec: InstallSpec;
  /** The skill's tools folder (`<pluginData>/tools/<key>`). */
  toolsDir: string;
  maxBytes: number;
  signal: AbortSignal;
  /** How tar and unzip run (PATH, deadline, output tail). */
  run: InstallerOptions;
}

/** Downloads, checks and places the file; answers like an installer run. */
export async function runDownload(job: DownloadJob): Promise<InstallerRun> {
  const { spec } = job;
  if (!spec.url) throw badValue('this download option has no url');
  if (!spec.sha256)
    throw badValue(
      `the download ${spec.url} has no sha256 in the skill's metadata, so what arrives cannot be checked; it is not run — fetch it yourself if you trust it`,
    );
  const target = downloadTarget(job.toolsDir, spec.targetDir);
  if ('problem' in target) throw badValue(target.problem);
  const root = path.dirname(job.toolsDir);
  fs.mkdirSync(root, { recursive: true });
  const id = randomBytes(6).toString('hex');
  const file = path.join(root, `.download-${id}`);
  const staging = path.join(root, `.stage-${id}`);
  try {
    const sha256 = await fetchTo(spec.url, file, job.maxBytes, job.signal);
    if (sha256 !== spec.sha256) throw badValue(`the file from ${spec.url} has sha256 ${sha256}, not the ${spec.sha256} the skill gives; nothing was installed`);
    fs.mkdirSync(staging);
    const unpacked = shouldExtract(spec) ? await unpack(spec, file, staging, job.run) : keepFile(spec.url, file, staging);
    if (unpacked.exitCode !== 0) return unpacked;
    replaceFolder(staging, target.dir);
    return { ...unpacked, output: `${unpacked.output}${unpacked.output ? '\n' : ''}placed in ${target.dir}: ${fs.readdirSync(target.dir).join(', ')}` };
  } finally {
    fs.rmSync(file, { force: true });
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Streams the body to `file`, refusing more than `maxBytes`; answers its SHA-256. */
async function fetchTo(url: string, file: string, maxBytes: number, signal: AbortSignal): Promise<string> {
  const response = await fetch(url, { signal, redirect: 'follow' });
  if (!response.ok || !response.body) throw badValue(`${url} answered HTTP ${response.status}; nothing was installed`);
  const hash = createHash('sha256');
  const out = fs.openSync(file, 'w', 0o600);
  let bytes = 0;
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      if (bytes > maxBytes) throw badValue(`${url} sent more than ${formatBytes(maxBytes)}; nothing was installed`);
      hash.update(chunk);
      fs.writeSync(out, chunk);
    }
  } finally {
    fs.closeSync(out);
  }
  return hash.digest('hex');
}

async function unpack(spec: InstallSpec, file: string, into: string, run: InstallerOptions): Promise<InstallerRun> {
  const type = archiveTypeOf(spec) ?? '';
  const strip = spec.stripComponents ?? 0;
  if (type === 'zip') {
    if (strip > 0) throw badValue('stripComponents is not supported for zip downloads; nothing was installed');
    return runTool(['unzip', '-q', '-o', file, '-d', into], run);
  }
  if (!type.startsWith('tar')) throw badValue(`the archive type ${JSON.stringify(type)} is none of tar, tar.gz, tar.bz2, tar.xz or zip; nothing was installed`);
  // GNU tar finds the compression itself, drops leading `/` and `../` from names, and never extracts above `into`.
  return runTool(['tar', '-x', '-f', file, '-C', into, '--no-same-owner', ...(strip > 0 ? [`--strip-components=${strip}`] : [])], run);
}

async function runTool(argv: string[], run: InstallerOptions): Promise<InstallerRun> {
  const program = argv[0] ?? '';
  if (!findExecutable(program, run.env['PATH'] ?? ''))
    throw badValue(`${program} is not installed here (not on PATH), and this download needs it to unpack; install ${program} first`);
  return runInstaller(argv, run);
}

/** A download that is not an archive: kept under the URL's file name, executable. */
function keepFile(url: string, file: string, into: string): InstallerRun {
  const name = path.basename(new URL(url).pathname) || 'download';
  fs.copyFileSync(file, path.join(into, name));
  fs.chmodSync(path.join(into, name), 0o755);
  return { exitCode: 0, output: '', timedOut: false };
}

/** Moves `staging` to `dir`, replacing what was there. */
function replaceFolder(staging: string, dir: string): void {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(staging, dir);
}
