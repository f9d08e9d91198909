import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LlmMessage, LlmToolCall } from '../llm/types';

/** Conversations by session id, persisted so history survives a restart. */
export class SessionStore {
  private readonly db: Database.Database;

  constructor(file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS sessions (
        id TEXT PRIMARY KEY, home TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS messages (
        session TEXT NOT NULL, seq INTEGER NOT NULL, role TEXT NOT NULL, content TEXT NOT NULL,
        tool_calls TEXT, tool_call_id TEXT, at INTEGER NOT NULL, PRIMARY KEY (session, seq));
    `);
  }

  /** The plugin that last brought a person's input to this session: where turns it did not start report. */
  homeOf(session: string): string | undefined {
    const row = this.db.prepare('SELECT home FROM sessions WHERE id = ?').get(session) as { home: string | null } | undefined;
    return row?.home ?? undefined;
  }

  /** The newest `limit` messages, never starting inside a tool exchange. */
  history(session: string, limit: number): LlmMessage[] {
    const rows = this.db
      .prepare('SELECT role, content, tool_calls, tool_call_id FROM messages WHERE session = ? ORDER BY seq DESC LIMIT ?')
      .all(session, limit) as { role: LlmMessage['role']; content: string; tool_calls: string | null; tool_call_id: string | null }[];
    const messages = rows.reverse().map((row) => {
      const message: LlmMessage = { role: row.role, content: row.content };
      if (row.tool_calls) message.toolCalls = JSON.parse(row.tool_calls) as LlmToolCall[];
      if (row.tool_call_id) message.toolCallId = row.tool_call_id;
      return message;
    });
    while (messages.length > 0 && (messages[0]?.role === 'tool' || messages[0]?.role === 'assistant')) messages.shift();
    return messages;
  }

  /** Appends a turn's messages in one transaction, and records the session's home plugin. */
  append(session: string, messages: LlmMessage[], home?: string): void {
    const now = Date.now();
    const next = this.db.prepare('SELECT COALESCE(MAX(seq), 0) AS seq FROM messages WHERE session = ?');
    const insert = this.db.prepare(
      'INSERT INTO messages (session, seq, role, content, tool_calls, tool_call_id, at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const upsert = this.db.prepare(
      `INSERT INTO sessions (id, home, created_at, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET home = COALESCE(excluded.home, sessions.home), updated_at = excluded.updated_at`,
    );
    this.db.transaction(() => {
      let seq = (next.get(session) as { seq: number }).seq;
      for (const m of messages) {
        insert.run(session, ++seq, m.role, m.content, m.toolCalls ? JSON.stringify(m.toolCalls) : null, m.toolCallId ?? null, now);
      }
      upsert.run(session, home ?? null, now, now);
    }).immediate();
  }

  /** Records the home plugin of a session without adding messages. */
  setHome(session: string, home: string): void {
    const now = Date.now();
    this.db
      .prepare(
        `INSERT INTO sessions (id, home, created_at, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET home = excluded.home, updated_at = excluded.updated_at`,
      )
      .run(session, home, now, now);
  }

  close(): void {
    this.db.close();
  }
}
