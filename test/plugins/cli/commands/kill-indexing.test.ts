// kill -9 of homed while it indexes a large knowledge folder at start, then a clean restart: the
// chunk store passes integrity_check, the index loads or catches up (with a log line), and every
// file is found by its own word through homectl.
import assert from 'node:assert/strict';
import Database from '../../../../protocol/runtime/internals/sqlite';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { makeTempDir, runHomectl, startHomed, waitFor } from '../../../harness/homed';

const FILES = 1500;

function committedFiles(store: string): number {
  try {
    const db = new Database(store, { readonly: true, fileMustExist: true });
    try {
      return (db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return 0;
  }
}

test('homed killed with SIGKILL mid-indexing restarts with a sound store and finds every file', async (t) => {
  const dataDir = makeTempDir('kill-index-');
  t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  for (let i = 0; i < FILES; i++) {
    const dir = path.join(dataDir, 'knowledge', `shelf-${Math.floor(i / 100)}`);
    fs.mkdirSync(dir, { recursive: true });
    const body = `# Manual ${i}\n\n## Code word\nThe code word of this manual is qv${i.toString(36)}z.\n\n## Care\n${'Wipe the outside with a damp cloth and keep the vents free. '.repeat(12)}\n`;
    fs.writeFileSync(path.join(dir, `manual-${i}.md`), body);
  }
  const store = path.join(dataDir, 'index', 'knowledge.db');
  const first = await startHomed({ dataDir });
  t.after(() => first.cleanup());
  await waitFor(() => committedFiles(store) >= 100 || undefined, { what: 'indexing under way', timeoutMs: 60_000, intervalMs: 5 });
  await first.kill9();
  const atKill = committedFiles(store);
  if (atKill >= FILES) t.diagnostic('indexing finished before the kill landed; the restart is still checked');

  const db = new Database(store, { readonly: true });
  assert.equal(String(db.pragma('integrity_check', { simple: true })), 'ok');
  db.close();

  const second = await startHomed({ dataDir });
  t.after(() => second.cleanup());
  const listed = await waitFor(
    async () => {
      const out = await runHomectl(['knowledge', 'list', '--json'], { dataDir });
      if (out.code !== 0) return undefined;
      const files = JSON.parse(out.stdout) as { file: string; chunks: number }[];
      return files.length === FILES && files.every((f) => f.chunks > 0) ? files : undefined;
    },
    { what: `all ${FILES} files indexed after the restart`, timeoutMs: 120_000, intervalMs: 500 },
  );
  assert.equal(listed.length, FILES);
  for (const i of [0, Math.floor(atKill / 2), FILES - 1]) {
    const found = await runHomectl(['knowledge', 'search', `qv${i.toString(36)}z`, '--json'], { dataDir });
    const hits = JSON.parse(found.stdout) as { file: string }[];
    assert.equal(hits[0]?.file, `shelf-${Math.floor(i / 100)}/manual-${i}.md`, `manual ${i} found by its word`);
  }
  t.diagnostic(`killed with ${atKill} of ${FILES} files committed`);
});
