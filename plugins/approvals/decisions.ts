// Every decision the guard makes, kept in <pluginData>/decisions.db for approvals/list (homectl approvals list).
import Database from '../../protocol/runtime/internals/sqlite';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ApprovalDecision } from '../../protocol';

/** Decisions kept; older ones are removed as new ones come. */
export const MAX_DECISIONS_KEPT = 10_000;

/** A decision to record. */
export type DecisionEntry = Omit<ApprovalDecision, 'id' | 'at'>;

/** The decisions table. */
export class DecisionLog {
  private readonly db: Database.Database;
  private readonly insert: Database.Statement;
  private readonly prune: Database.Statement;

  constructor(
    file: string,
    private readonly now: () => number = Date.now,
  ) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS decisions (
      id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, session TEXT NOT NULL, tool TEXT NOT NULL,
      args TEXT NOT NULL, decision TEXT NOT NULL, by TEXT NOT NULL, detail TEXT)`);
    this.insert = this.db.prepare('INSERT INTO decisions (at, session, tool, args, decision, by, detail) VALUES (?, ?, ?, ?, ?, ?, ?)');
    this.prune = this.db.prepare('DELETE FROM decisions WHERE id <= (SELECT MAX(id) FROM decisions) - ?');
  }

  /** Records one decision. */
  record(entry: DecisionEntry): void {
    const { lastInsertRowid } = this.insert.run(this.now(), entry.session, entry.tool, entry.args, entry.decision, entry.by, entry.detail ?? null);
    if (Number(lastInsertRowid) % 100 === 0) this.prune.run(MAX_DECISIONS_KEPT);
  }

  /** The newest `limit` decisions, newest first; only one session's when named. */
  newest(limit: number, session?: string): ApprovalDecision[] {
    const rows = (
      session === undefined
        ? this.db.prepare('SELECT * FROM decisions ORDER BY id DESC LIMIT ?').all(limit)
        : this.db.prepare('SELECT * FROM decisions WHERE session = ? ORDER BY id DESC LIMIT ?').all(session, limit)
    ) as (Omit<ApprovalDecision, 'at' | 'detail'> & { at: number; detail: string | null })[];
    return rows.map(({ at, detail, ...row }) => ({ ...row, at: new Date(at).toISOString(), ...(detail === null ? {} : { detail }) }));
  }

  close(): void {
    this.db.close();
  }
}
