// Answers no client received, kept in agent.db for the session's next client: a timer's reminder fired while nobody
// was attached (the session's plugin had no one waiting or following it, or the session had no plugin, or its
// plugin was not running). Handed over once, oldest first, and counted in `homectl sessions list` until then.
import type Database from '../../protocol/runtime/internals/sqlite';
import { shortenMissedText, type MissedOutput, type OutputParams } from '../../protocol';

/** Outputs kept per session: a day of reminders nobody read; older ones go first. */
export const MISSED_PER_SESSION = 20;

/** Whether an output is one a person would miss: a final answer or error (not a piece of a stream, not one a stage kept back). */
export function isMissable(output: Pick<OutputParams, 'kind' | 'skipped'>): boolean {
  return (output.kind === 'done' && output.skipped !== true) || output.kind === 'error';
}

/** The kept outputs of every session. */
export class MissedOutputs {
  constructor(private readonly db: Database.Database) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS missed_outputs (
        id INTEGER PRIMARY KEY AUTOINCREMENT, session TEXT NOT NULL, at INTEGER NOT NULL, output TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS missed_outputs_by_session ON missed_outputs (session, id);
    `);
  }

  /** Keeps a final output for the session's next client (its text shortened past the protocol's bound); answers how many older ones were dropped. */
  keep(output: OutputParams, at: number = Date.now()): number {
    if (!isMissable(output)) return 0;
    const kept: OutputParams = { session: output.session, kind: output.kind };
    if (output.text !== undefined) kept.text = shortenMissedText(output.text, output.session);
    if (output.error !== undefined) kept.error = shortenMissedText(output.error, output.session);
    if (output.code !== undefined) kept.code = output.code;
    if (output.interrupted) kept.interrupted = true;
    return this.db.transaction(() => {
      this.db.prepare('INSERT INTO missed_outputs (session, at, output) VALUES (?, ?, ?)').run(output.session, at, JSON.stringify(kept));
      return this.db
        .prepare('DELETE FROM missed_outputs WHERE session = ? AND id NOT IN (SELECT id FROM missed_outputs WHERE session = ? ORDER BY id DESC LIMIT ?)')
        .run(output.session, output.session, MISSED_PER_SESSION).changes;
    })();
  }

  /** Removes and answers the session's kept outputs, oldest first. */
  take(session: string): MissedOutput[] {
    return this.db.transaction(() => {
      const rows = this.db.prepare('SELECT at, output FROM missed_outputs WHERE session = ? ORDER BY id').all(session) as { at: number; output: string }[];
      this.db.prepare('DELETE FROM missed_outputs WHERE session = ?').run(session);
      return rows.map((row) => ({ at: row.at, output: JSON.parse(row.output) as OutputParams }));
    })();
  }
}
