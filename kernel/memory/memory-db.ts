// The memory graph's database as every part of the memory uses it: the SQLite handle, the clock, the log, and prepared statements.
import type Database from '../../protocol/runtime/internals/sqlite';
import type { Logger } from 'pino';

/** The graph database with its clock and log, preparing each statement once. */
export class MemoryDb {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(
    readonly sqlite: Database.Database,
    readonly now: () => number,
    readonly log: Logger,
  ) {}

  /** A prepared statement for `sql`, prepared once: preparing costs more than most of our queries. */
  stmt<R = unknown>(sql: string): Database.Statement<unknown[], R> {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.sqlite.prepare(sql)));
    return statement as Database.Statement<unknown[], R>;
  }

  /** Runs `work` as one transaction (nested calls join the outer one). */
  transaction<T>(work: () => T): T {
    return this.sqlite.transaction(work)();
  }
}
