// The write-ahead journal of a person's input: a row is written before the sender hears the input was
// accepted, its answer is checkpointed while it streams, and the row leaves the journal in the same
// transaction that stores the finished turn. What stays is either open (a crash cut it off: found at the
// next start) or an input that got no answer (failed, or ended by a stop before it ran), shown in
// `homectl sessions show` so a person can see nothing was lost.
import type Database from '../../protocol/runtime/internals/sqlite';

/** Where a journalled input is: waiting in its lane, running, or ended without an answer. */
export type JournalState = 'queued' | 'running' | 'failed' | 'dropped';

/** One journalled input. */
export interface JournalRow {
  /** The kernel-wide input id. */
  id: string;
  session: string;
  /** Plugin that sent it. */
  source: string;
  /** The sender's own id for it. */
  inputId: string | null;
  via: 'input' | 'interrupt';
  text: string;
  state: JournalState;
  /** The answer so far, as last checkpointed. */
  partial: string | null;
  /** Why it got no answer. */
  error: string | null;
  receivedAt: number;
  updatedAt: number;
}

const COLUMNS = `id, session, source, input_id AS inputId, via, text, state, partial, error, received_at AS receivedAt, updated_at AS updatedAt`;

/** The `inputs` table of agent.db. */
export class InputJournal {
  private readonly insert: Database.Statement;
  private readonly setState: Database.Statement;
  private readonly setPartial: Database.Statement;
  private readonly setText: Database.Statement;
  private readonly end: Database.Statement;
  private readonly drop: Database.Statement;

  constructor(private readonly db: Database.Database) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS inputs (
        id TEXT PRIMARY KEY, session TEXT NOT NULL, source TEXT NOT NULL, input_id TEXT, via TEXT NOT NULL,
        text TEXT NOT NULL, state TEXT NOT NULL, partial TEXT, error TEXT,
        received_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
      CREATE INDEX IF NOT EXISTS inputs_by_session ON inputs (session, received_at);
    `);
    this.insert = db.prepare(
      `INSERT INTO inputs (id, session, source, input_id, via, text, state, received_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'queued', ?, ?)`,
    );
    this.setState = db.prepare('UPDATE inputs SET state = ?, updated_at = ? WHERE id = ?');
    this.setPartial = db.prepare('UPDATE inputs SET partial = ?, updated_at = ? WHERE id = ?');
    this.setText = db.prepare('UPDATE inputs SET text = ?, updated_at = ? WHERE id = ?');
    this.end = db.prepare('UPDATE inputs SET state = ?, error = ?, updated_at = ? WHERE id = ?');
    this.drop = db.prepare('DELETE FROM inputs WHERE id = ?');
  }

  /** Writes an accepted input; throws (SQLITE_FULL, SQLITE_IOERR…) when it cannot be stored. */
  accept(input: {
    id: string;
    session: string;
    source: string;
    inputId?: string | undefined;
    via: 'input' | 'interrupt';
    text: string;
    receivedAt: number;
  }): void {
    this.insert.run(input.id, input.session, input.source, input.inputId ?? null, input.via, input.text, input.receivedAt, input.receivedAt);
  }

  /** Its turn began. */
  started(id: string): void {
    this.setState.run('running', Date.now(), id);
  }

  /** Keeps the answer so far, for a restart after a crash. */
  checkpoint(id: string, partial: string): void {
    this.setPartial.run(partial, Date.now(), id);
  }

  /** The text of a queued input changed (interrupt texts coalesced into it). */
  retext(id: string, text: string): void {
    this.setText.run(text, Date.now(), id);
  }

  /** It ended without an answer: `failed` (the turn failed) or `dropped` (a stop ended it before it ran). */
  ended(id: string, state: 'failed' | 'dropped', error: string): void {
    this.end.run(state, error, Date.now(), id);
  }

  /** Its turn is stored in the conversation: it leaves the journal. */
  remove(id: string): void {
    this.drop.run(id);
  }

  /** Inputs a crash cut off: queued or running when homed stopped, oldest first. */
  open(): JournalRow[] {
    return this.db.prepare(`SELECT ${COLUMNS} FROM inputs WHERE state IN ('queued', 'running') ORDER BY received_at, rowid`).all() as JournalRow[];
  }

  /** A session's inputs that got no answer, oldest first. */
  unanswered(session: string): JournalRow[] {
    return this.db
      .prepare(`SELECT ${COLUMNS} FROM inputs WHERE session = ? AND state IN ('failed', 'dropped') ORDER BY received_at, rowid`)
      .all(session) as JournalRow[];
  }
}
