// Tokens and requests per provider, model and UTC day, counted as answers come back, for `homectl usage`.
import { utcDayOf } from '../../protocol/format';
import Database from '../../protocol/runtime/internals/sqlite';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { UsageRow } from '../../protocol';
import type { LlmResult } from './types';

const DAY_MS = 86_400_000;
/** What `usage/read` covers when it is not told. */
export const DEFAULT_USAGE_DAYS = 30;

/** The usage table of the agent's database. */
export class UsageLedger {
  private readonly db: Database.Database;
  private readonly add: Database.Statement;
  private readonly since: Database.Statement;

  constructor(file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(`CREATE TABLE IF NOT EXISTS llm_usage (
      day TEXT NOT NULL, provider TEXT NOT NULL, model TEXT NOT NULL,
      requests INTEGER NOT NULL, input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL, unreported INTEGER NOT NULL,
      PRIMARY KEY (day, provider, model))`);
    this.add = this.db.prepare(`INSERT INTO llm_usage VALUES (?, ?, ?, 1, ?, ?, ?)
      ON CONFLICT (day, provider, model) DO UPDATE SET requests = requests + 1, input_tokens = input_tokens + excluded.input_tokens,
      output_tokens = output_tokens + excluded.output_tokens, unreported = unreported + excluded.unreported`);
    this.since = this.db.prepare('SELECT * FROM llm_usage WHERE day >= ? ORDER BY day, provider, model');
  }

  /** Counts one answer; a write that fails (a full disk) costs the count, never the answer. */
  record(result: Pick<LlmResult, 'provider' | 'model' | 'usage'>, at = Date.now()): boolean {
    const { inputTokens, outputTokens } = result.usage;
    const unreported = inputTokens === undefined && outputTokens === undefined ? 1 : 0;
    try {
      this.add.run(utcDayOf(at), result.provider, result.model, inputTokens ?? 0, outputTokens ?? 0, unreported);
      return true;
    } catch {
      return false;
    }
  }

  /** Rows from the UTC day of `since` (default: the last 30 days), oldest first. */
  read(since = Date.now() - (DEFAULT_USAGE_DAYS - 1) * DAY_MS): UsageRow[] {
    const rows = this.since.all(utcDayOf(since)) as Record<string, string | number>[];
    return rows.map((row) => ({
      day: String(row['day']),
      provider: String(row['provider']),
      model: String(row['model']),
      requests: Number(row['requests']),
      inputTokens: Number(row['input_tokens']),
      outputTokens: Number(row['output_tokens']),
      unreported: Number(row['unreported']),
    }));
  }

  close(): void {
    this.db.close();
  }
}
