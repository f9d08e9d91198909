// The archive writer with real files: a plain file that is gone by the time it is read (homed renamed a temporary
// file into place meanwhile) is left out and named in the manifest, and the rest is archived whole.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import * as zlib from 'node:zlib';
import { writeArchive, type ArchiveFile } from '../../../../plugins/cli/backup/write-archive';
import { makeTempDir } from '../../../harness/homed';

describe('the archive writer', () => {
  it('leaves out, and names, a file removed between the listing and its read', async (t) => {
    const dir = makeTempDir('backup-writer-');
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const listed = (rel: string): ArchiveFile => {
      const source = path.join(dir, rel);
      return {
        rel,
        source,
        kind: 'file',
        mode: 0o600,
        uid: process.getuid?.() ?? 0,
        gid: process.getgid?.() ?? 0,
        mtime: new Date(),
        size: fs.statSync(source).size,
      };
    };
    fs.writeFileSync(path.join(dir, 'kept.txt'), 'still here');
    fs.writeFileSync(path.join(dir, '.index.123.tmp'), 'about to be renamed');
    const files = [listed('kept.txt'), listed('.index.123.tmp')];
    fs.rmSync(path.join(dir, '.index.123.tmp'));

    const target = path.join(dir, 'out.tar.gz');
    const manifest = await writeArchive(
      target,
      [],
      files,
      {
        format: 1,
        homeagentVersion: 'test',
        createdAt: new Date().toISOString(),
        sourceDataDir: dir,
        sourceOwner: { uid: 0, gid: 0 },
        withSecrets: false,
        secretsLeftOut: [],
        leftOut: [],
      },
      () => undefined,
    );

    assert.deepEqual(
      manifest.entries.map((e) => [e.path, e.sha256]),
      [['kept.txt', createHash('sha256').update('still here').digest('hex')]],
    );
    assert.deepEqual(
      manifest.leftOut.map((l) => l.path),
      ['.index.123.tmp'],
    );
    assert.match(manifest.leftOut[0]?.reason ?? '', /removed while the backup ran/);
    const tar = zlib.gunzipSync(fs.readFileSync(target)).toString('latin1');
    assert.ok(tar.includes('still here') && !tar.includes('about to be renamed'));
  });
});
