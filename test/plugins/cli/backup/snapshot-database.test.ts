// Database snapshots for a backup: every database's read snapshot is taken before the first copy, so what homed
// writes while the copies run is in none of them, and the copies agree with each other.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import Database from '../../../../protocol/runtime/internals/sqlite';
import { takeSnapshots } from '../../../../plugins/cli/backup/snapshot-database';

function liveDatabase(file: string, rows: number): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (x INTEGER)');
  const insert = db.prepare('INSERT INTO t VALUES (?)');
  for (let i = 0; i < rows; i++) insert.run(i);
  return db;
}

const rowsIn = (file: string): number => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

/** 1 when a reader keeps a full checkpoint from finishing, else 0. */
const checkpointBusy = (db: Database.Database): number => (db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[])[0]!.busy;

describe('database snapshots for a backup', () => {
  it('copies each database as it was when the snapshots were taken, though a writer goes on between the copies', async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snapshots-'));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const [a, b] = [path.join(dir, 'a.db'), path.join(dir, 'b.db')];
    const writers = [liveDatabase(a, 10), liveDatabase(b, 20)];
    try {
      const snapshots = takeSnapshots([a, b]);
      try {
        writers[1]!.prepare('INSERT INTO t VALUES (99)').run();
        assert.equal(checkpointBusy(writers[1]!), 1, 'the snapshot holds its read transaction open');
        await snapshots[0]!.copy(path.join(dir, 'a-copy.db'));
        // The first copy took time; the writer went on in the second database meanwhile.
        writers[1]!.prepare('INSERT INTO t VALUES (100)').run();
        writers[0]!.prepare('INSERT INTO t VALUES (101)').run();
        await snapshots[1]!.copy(path.join(dir, 'b-copy.db'));
      } finally {
        for (const snapshot of snapshots) snapshot.close();
      }
      assert.equal(rowsIn(path.join(dir, 'a-copy.db')), 10);
      assert.equal(rowsIn(path.join(dir, 'b-copy.db')), 20, 'neither write after the snapshot is in the copy');
      assert.deepEqual([rowsIn(a), rowsIn(b)], [11, 22], 'the writes themselves went through');
      // With the snapshots closed, the writer checkpoints its log back into the file as ever.
      assert.equal(checkpointBusy(writers[1]!), 0);
    } finally {
      for (const writer of writers) writer.close();
    }
  });

  it('names a database that cannot be opened, and leaves none of the others held', (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snapshots-'));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const here = path.join(dir, 'here.db');
    const writer = liveDatabase(here, 1);
    try {
      const gone = path.join(dir, 'gone.db');
      assert.throws(() => takeSnapshots([here, gone]), new RegExp(`^Error: could not open the database ${gone.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: `));
      writer.prepare('INSERT INTO t VALUES (2)').run();
      assert.equal(checkpointBusy(writer), 0, 'no read transaction is left open on here.db');
    } finally {
      writer.close();
    }
  });
});
