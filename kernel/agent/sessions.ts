import Database from '../../protocol/runtime/internals/sqlite';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LlmMessage, LlmToolCall } from '../llm/types';
import { InputJournal } from './input-journal';
import { MissedOutputs } from './missed-outputs';
import type { AgentCallRecord, ToolStep } from './tool-steps';

/** How a stored answer ended short: stopped by a person, cut off by homed stopping, or cut at the answer cap. */
export type MessageFlag = 'interrupted' | 'cut_off' | 'capped';

/** A message to store, with how it ended when it ended short, and for a tool result how its call went. */
export type StoredMessage = LlmMessage & { flag?: MessageFlag; step?: ToolStep };

/** Conversations by session id, persisted so history survives a restart. */
export class SessionStore {
  private readonly db: Database.Database;
  /** Inputs written ahead of their turns, so a crash loses no word a person sent. */
  readonly journal: InputJournal;
  /** Answers no client received, kept for each session's next client. */
  readonly missed: MissedOutputs;
  /** Where the store lives (named in disk-full errors). */
  readonly file: string;

  constructor(file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.file = file;
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    // sessions.home holds the session's owner plugin (ownerPlugin in the code); the column keeps its first name, so existing files open as they are.
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS sessions (
        id TEXT PRIMARY KEY, home TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS messages (
        session TEXT NOT NULL, seq INTEGER NOT NULL, role TEXT NOT NULL, content TEXT NOT NULL,
        tool_calls TEXT, tool_call_id TEXT, at INTEGER NOT NULL, PRIMARY KEY (session, seq));
      CREATE TABLE IF NOT EXISTS distilled (session TEXT PRIMARY KEY, seq INTEGER NOT NULL, at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS agent_calls (
        session TEXT NOT NULL, after_seq INTEGER NOT NULL, agent TEXT NOT NULL, call_id TEXT NOT NULL, name TEXT NOT NULL,
        args TEXT NOT NULL, result TEXT NOT NULL, tool_step TEXT NOT NULL, at INTEGER NOT NULL);
      CREATE INDEX IF NOT EXISTS agent_calls_by_session ON agent_calls (session, after_seq);
    `);
    const columns = this.db.prepare('PRAGMA table_info(messages)').all() as { name: string }[];
    if (!columns.some((c) => c.name === 'flag')) this.db.exec('ALTER TABLE messages ADD COLUMN flag TEXT');
    // A tool result's call: duration and outcome as JSON, for the cards a client shows of past turns.
    if (!columns.some((c) => c.name === 'tool_step')) this.db.exec('ALTER TABLE messages ADD COLUMN tool_step TEXT');
    this.journal = new InputJournal(this.db);
    this.missed = new MissedOutputs(this.db);
    this.insertMessage = this.db.prepare(
      'INSERT INTO messages (session, seq, role, content, tool_calls, tool_call_id, at, flag, tool_step) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.insertAgentCall = this.db.prepare(
      'INSERT INTO agent_calls (session, after_seq, agent, call_id, name, args, result, tool_step, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.nextSeq = this.db.prepare('SELECT COALESCE(MAX(seq), 0) AS seq FROM messages WHERE session = ?');
    this.upsertSession = this.db.prepare(
      `INSERT INTO sessions (id, home, created_at, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET home = COALESCE(excluded.home, sessions.home), updated_at = excluded.updated_at`,
    );
  }

  private readonly insertMessage: Database.Statement;
  private readonly insertAgentCall: Database.Statement;
  private readonly nextSeq: Database.Statement;
  private readonly upsertSession: Database.Statement;

  /** The open database, for the read-only views of sessions (list, show). */
  get database(): Database.Database {
    return this.db;
  }

  /** The session's owner plugin: the one that last brought a person's input to it, where turns it did not start report. */
  ownerPluginOf(session: string): string | undefined {
    const row = this.db.prepare('SELECT home FROM sessions WHERE id = ?').get(session) as { home: string | null } | undefined;
    return row?.home ?? undefined;
  }

  /** The messages of the newest `maxTurns` turns (a turn starts at a person's message), oldest first, with their sequence numbers. */
  recentTurnRows(session: string, maxTurns: number): { seq: number; message: LlmMessage }[] {
    const start = this.db
      .prepare("SELECT MIN(seq) AS seq FROM (SELECT seq FROM messages WHERE session = ? AND role = 'user' ORDER BY seq DESC LIMIT ?)")
      .get(session, maxTurns) as { seq: number | null };
    if (start.seq === null) return [];
    return this.rowsFrom(session, start.seq, Number.MAX_SAFE_INTEGER);
  }

  /** Messages after `seq`, oldest first, at most `limit`. */
  rowsFrom(session: string, seq: number, limit: number): { seq: number; message: LlmMessage; at: number }[] {
    const rows = this.db
      .prepare('SELECT seq, role, content, tool_calls, tool_call_id, at FROM messages WHERE session = ? AND seq >= ? ORDER BY seq LIMIT ?')
      .all(session, seq, limit) as (MessageRow & { seq: number; at: number })[];
    return rows.map((row) => ({ seq: row.seq, message: toMessage(row), at: row.at }));
  }

  /** Sessions with messages past what was distilled into memory, least recently distilled first. */
  undistilled(excluded: (session: string) => boolean): { session: string; after: number; last: number; updatedAt: number }[] {
    const rows = this.db
      .prepare(
        `SELECT s.id AS session, COALESCE(d.seq, 0) AS after, (SELECT MAX(seq) FROM messages m WHERE m.session = s.id) AS last, s.updated_at AS updatedAt
         FROM sessions s LEFT JOIN distilled d ON d.session = s.id
         WHERE (SELECT MAX(seq) FROM messages m WHERE m.session = s.id) > COALESCE(d.seq, 0)
         ORDER BY COALESCE(d.at, 0), s.updated_at`,
      )
      .all() as { session: string; after: number; last: number; updatedAt: number }[];
    return rows.filter((row) => !excluded(row.session));
  }

  /** Records that a session's messages up to `seq` were distilled. */
  markDistilled(session: string, seq: number): void {
    this.db
      .prepare(
        'INSERT INTO distilled (session, seq, at) VALUES (?, ?, ?) ON CONFLICT (session) DO UPDATE SET seq = MAX(distilled.seq, excluded.seq), at = excluded.at',
      )
      .run(session, seq, Date.now());
  }

  /** The newest `limit` messages, never starting inside a tool exchange. */
  history(session: string, limit: number): LlmMessage[] {
    const rows = this.db
      .prepare('SELECT role, content, tool_calls, tool_call_id FROM messages WHERE session = ? ORDER BY seq DESC LIMIT ?')
      .all(session, limit) as MessageRow[];
    const messages = rows.reverse().map(toMessage);
    while (messages.length > 0 && (messages[0]?.role === 'tool' || messages[0]?.role === 'assistant')) messages.shift();
    return messages;
  }

  /**
   * Appends a turn's messages in one transaction, records the session's owner plugin and, when the turn
   * answered a journalled input, removes that input from the journal in the same transaction (its words are
   * now in the conversation); answers the first message's sequence number. The turn's sub-agent calls are kept
   * beside its messages, each after the message it followed.
   */
  append(session: string, messages: StoredMessage[], ownerPlugin?: string, inputId?: string, agentCalls: readonly AgentCallRecord[] = []): number {
    return this.db.transaction(() => this.appendNow(session, messages, ownerPlugin, inputId, Date.now(), agentCalls)).immediate();
  }

  /** append's body, for callers already inside a transaction. */
  appendNow(
    session: string,
    messages: StoredMessage[],
    ownerPlugin?: string,
    inputId?: string,
    at = Date.now(),
    agentCalls: readonly AgentCallRecord[] = [],
  ): number {
    const first = (this.nextSeq.get(session) as { seq: number }).seq + 1;
    let seq = first - 1;
    for (const m of messages) {
      const step = m.step ? JSON.stringify(m.step) : null;
      this.insertMessage.run(
        session,
        ++seq,
        m.role,
        m.content,
        m.toolCalls ? JSON.stringify(m.toolCalls) : null,
        m.toolCallId ?? null,
        at,
        m.flag ?? null,
        step,
      );
    }
    for (const call of agentCalls) {
      const { ms, outcome, denied } = call;
      const afterSeq = first - 1 + Math.min(Math.max(call.after, 1), messages.length);
      const step = JSON.stringify({ ms, outcome, ...(denied !== undefined ? { denied } : {}) });
      this.insertAgentCall.run(session, afterSeq, call.agent, call.id, call.name, call.args, call.result, step, call.at);
    }
    this.upsertSession.run(session, ownerPlugin ?? null, at, at);
    if (inputId !== undefined) this.journal.remove(inputId);
    return first;
  }

  /** Runs `fn` in one write transaction. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  close(): void {
    this.db.close();
  }
}

interface MessageRow {
  role: LlmMessage['role'];
  content: string;
  tool_calls: string | null;
  tool_call_id: string | null;
}

function toMessage(row: MessageRow): LlmMessage {
  const message: LlmMessage = { role: row.role, content: row.content };
  if (row.tool_calls) message.toolCalls = JSON.parse(row.tool_calls) as LlmToolCall[];
  if (row.tool_call_id) message.toolCallId = row.tool_call_id;
  return message;
}
