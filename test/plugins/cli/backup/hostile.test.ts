// Archives homectl backup never writes: each is refused whole by restore, with nothing made on disk.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import * as zlib from 'node:zlib';
import * as tar from 'tar-stream';
import { FORMAT_VERSION, type Manifest } from '../../../../plugins/cli/backup/manifest';
import { makeTempDir, runHomectl } from '../../../harness/homed';

type Entry = Parameters<tar.Pack['entry']>[0] & { body?: string };

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A manifest listing these files (path relative to data/). */
function manifestOf(files: Record<string, string>, changes: Partial<Manifest> = {}): Entry {
  const manifest: Manifest = {
    format: FORMAT_VERSION,
    homeagentVersion: 'test',
    createdAt: new Date().toISOString(),
    sourceDataDir: '/nowhere',
    sourceOwner: { uid: 0, gid: 0 },
    withSecrets: false,
    secretsLeftOut: [],
    directories: [],
    entries: Object.entries(files).map(([rel, body]) => ({ path: rel, size: body.length, sha256: sha(body), kind: 'file' })),
    leftOut: [],
    ...changes,
  };
  return { name: 'manifest.json', body: JSON.stringify(manifest) };
}

async function writeArchive(file: string, entries: Entry[]): Promise<string> {
  const pack = tar.pack();
  for (const { body, ...header } of entries) pack.entry({ mode: 0o600, ...header }, body ?? '');
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack as unknown as AsyncIterable<Buffer>) chunks.push(chunk);
  fs.writeFileSync(file, zlib.gzipSync(Buffer.concat(chunks)));
  return file;
}

const CASES: { name: string; entries: Entry[]; refusal: RegExp }[] = [
  { name: 'a path with ..', entries: [{ name: 'data/../escape', body: 'x' }, manifestOf({ '../escape': 'x' })], refusal: /"\.\." segment/ },
  { name: 'an absolute path', entries: [{ name: '/etc/evil', body: 'x' }, manifestOf({})], refusal: /outside data\// },
  { name: 'a symbolic link', entries: [{ name: 'data/link', type: 'symlink', linkname: '/etc/passwd' }, manifestOf({})], refusal: /is a symlink/ },
  { name: 'a hard link', entries: [{ name: 'data/hard', type: 'link', linkname: 'data/a' }, manifestOf({})], refusal: /is a link/ },
  { name: 'a device', entries: [{ name: 'data/dev', type: 'character-device', devmajor: 1, devminor: 3 }, manifestOf({})], refusal: /is a character-device/ },
  { name: 'no manifest', entries: [{ name: 'data/a', body: 'x' }], refusal: /no manifest\.json/ },
  { name: 'an entry after the manifest', entries: [manifestOf({}), { name: 'data/late', body: 'x' }], refusal: /after the manifest/ },
  { name: 'an unknown format', entries: [manifestOf({}, { format: 99 })], refusal: /format 99/ },
  { name: 'a file the manifest does not list', entries: [{ name: 'data/extra', body: 'x' }, manifestOf({})], refusal: /not in its manifest/ },
  { name: 'a file with another hash', entries: [{ name: 'data/a', body: 'y' }, manifestOf({ a: 'x' })], refusal: /SHA-256/ },
  { name: 'a file twice', entries: [{ name: 'data/a', body: 'x' }, { name: 'data/a', body: 'x' }, manifestOf({ a: 'x' })], refusal: /appears twice/ },
];

describe('homectl restore of hostile archives', () => {
  for (const { name, entries, refusal } of CASES) {
    it(`refuses ${name}, making nothing`, async (t) => {
      const root = makeTempDir('bk-');
      t.after(() => fs.rmSync(root, { recursive: true, force: true }));
      const archive = await writeArchive(path.join(root, 'hostile.tar.gz'), entries);
      const target = path.join(root, 'target', 'data');
      const result = await runHomectl(['restore', archive], { dataDir: target });
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, /is not a sound backup: .*nothing was changed/);
      assert.match(result.stderr, refusal);
      assert.deepEqual(fs.readdirSync(root), ['hostile.tar.gz'], 'nothing was made beside the archive');
    });
  }
});
