// What the model answered about a pair of entities that looked alike, so the same pair is not asked again.
import Database from '../../../protocol/runtime/internals/sqlite';

export class Verdicts {
  private readonly db: Database.Database;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS consolidation_verdicts (a TEXT NOT NULL, b TEXT NOT NULL, same INTEGER NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (a, b))',
    );
  }

  /** Whether the pair was judged before (in either order). */
  known(a: string, b: string): boolean {
    const [x, y] = ordered(a, b);
    return this.db.prepare('SELECT 1 FROM consolidation_verdicts WHERE a = ? AND b = ?').get(x, y) !== undefined;
  }

  record(a: string, b: string, same: boolean): void {
    const [x, y] = ordered(a, b);
    this.db
      .prepare(
        'INSERT INTO consolidation_verdicts (a, b, same, at) VALUES (?, ?, ?, ?) ON CONFLICT (a, b) DO UPDATE SET same = excluded.same, at = excluded.at',
      )
      .run(x, y, same ? 1 : 0, Date.now());
  }

  close(): void {
    this.db.close();
  }
}

function ordered(a: string, b: string): [string, string] {
  return a < b ? [a, b] : [b, a];
}
