import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TestContext } from 'node:test';
import { InstallError, installPackage, type InstallErrorKind, type InstallOptions, type InstallResult } from '../../../kernel/packages';
import * as yazl from 'yazl';
import { REPRODUCIBLE, type ZipEntryOptions } from '../../../scripts/pack/zip-writer';
import { writeUnder } from '../../harness/scratch';

/** The repository root (this file runs from dist/test/kernel/packages). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..', '..');

/** The shared hostile-ZIP corpus, beside the repository in the workspace; absent in a user's clone. */
export const ZIP_CORPUS = path.resolve(REPO_ROOT, '..', 'shared', 'corpus', 'zips');

/** A data dir for one test, removed after it: `plugins/` holds installed plugins, `plugin-data/` their data. */
export interface Sandbox {
  root: string;
  pluginsDir: string;
  /** Writes a file under root and answers its path. */
  file(name: string, data: Buffer | string): string;
}

export function makeSandbox(t: TestContext): Sandbox {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ha-packages-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const pluginsDir = path.join(root, 'plugins');
  fs.mkdirSync(pluginsDir);
  return {
    root,
    pluginsDir,
    file: (name, data) => writeUnder(root, name, data),
  };
}

/** Every file and folder under `dir` with its type, mode and content hash: equal snapshots mean nothing changed. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string, prefix: string): void => {
    for (const name of fs.readdirSync(at).sort()) {
      const full = path.join(at, name);
      const stat = fs.lstatSync(full);
      if (stat.isDirectory()) {
        out[`${prefix}${name}/`] = `dir ${(stat.mode & 0o777).toString(8)}`;
        walk(full, `${prefix}${name}/`);
      } else {
        const hash = stat.isFile() ? createHash('sha256').update(fs.readFileSync(full)).digest('hex').slice(0, 16) : 'link';
        out[`${prefix}${name}`] = `${stat.isFile() ? 'file' : 'other'} ${(stat.mode & 0o777).toString(8)} ${stat.size} ${hash}`;
      }
    }
  };
  walk(dir, '');
  return out;
}

/** A plugin.json for tests. */
export function manifest(name = 'weather', version = '1.0.0', extra: Record<string, unknown> = {}): Buffer {
  return Buffer.from(JSON.stringify({ name, version, entry: 'index.mjs', description: 'Forecasts', author: 'Ann', permissions: ['tools'], ...extra }, null, 2));
}

/** The files of a valid JS plugin named `name`. */
export function validFiles(name = 'weather', version = '1.0.0'): [string, Buffer][] {
  return [
    ['plugin.json', manifest(name, version)],
    ['index.mjs', Buffer.from(`export default { name: '${name}', version: '${version}' };\n`)],
    ['lib/util.mjs', Buffer.from('export const answer = 42;\n')],
  ];
}

/** Builds a ZIP in memory with yazl; `options` per file override the reproducible defaults. */
export async function zipBuffer(
  files: readonly (readonly [string, Buffer | string, ZipEntryOptions?])[],
  end: { forceZip64Format?: boolean } = {},
): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, data, options] of files) zip.addBuffer(Buffer.isBuffer(data) ? data : Buffer.from(data), name, { ...REPRODUCIBLE, ...options });
  zip.end({ forceZip64Format: end.forceZip64Format ?? false, comment: '' });
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Installs `file` and expects a refusal of `kind` (and `rule`), with the data dir exactly as it was. */
export async function expectRefused(
  sandbox: Sandbox,
  file: string,
  kind: InstallErrorKind,
  rule?: string,
  options: Omit<InstallOptions, 'pluginsDir'> = {},
): Promise<InstallError> {
  const before = snapshot(sandbox.root);
  const error = await installPackage(file, { ...options, pluginsDir: sandbox.pluginsDir }).then(
    (result: InstallResult) => assert.fail(`expected ${kind}, but ${result.manifest.name} was installed`),
    (e: unknown) => e,
  );
  assert.ok(error instanceof InstallError, `expected an InstallError, got ${String(error)}`);
  assert.equal(error.kind, kind, error.message);
  if (rule !== undefined) assert.equal(error.rule, rule, error.message);
  assert.deepEqual(snapshot(sandbox.root), before, 'the data dir changed');
  return error;
}

/** Bytes this process has written through write(2) and friends so far (Linux), or undefined. */
export function bytesWritten(): number | undefined {
  try {
    const match = /^wchar: (\d+)$/m.exec(fs.readFileSync('/proc/self/io', 'utf8'));
    return match?.[1] === undefined ? undefined : Number(match[1]);
  } catch {
    return undefined;
  }
}
