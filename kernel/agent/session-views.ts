// What `homectl sessions list|show` reads: every conversation with its counts, and one conversation as
// stored, with the inputs that got no answer (still in the journal) put among its messages by time.
import type Database from '../../protocol/runtime/internals/sqlite';
import { SESSION_ENTRY_MAX_CHARS, type SessionEntry, type SessionEntryFlag, type SessionSummary, type SessionsShowResult } from '../../protocol';
import { CONSOLIDATION_SOURCE } from '../io/io-manager';
import { shownArgs } from './tool-steps';

/** Characters of all entries in one sessions/show answer; older entries beyond it are left out and counted. */
const SHOW_MAX_CHARS = 512 * 1024;

interface SummaryRow {
  session: string;
  owner: string | null;
  turns: number;
  lastActivity: number;
  cutOff: number;
  interrupted: number;
  unanswered: number;
  open: number;
  missed: number;
}

const SUMMARY_SQL = `
  WITH ids AS (SELECT id AS session FROM sessions UNION SELECT DISTINCT session FROM inputs UNION SELECT DISTINCT session FROM missed_outputs)
  SELECT ids.session AS session,
    (SELECT home FROM sessions s WHERE s.id = ids.session) AS owner,
    (SELECT COUNT(*) FROM messages m WHERE m.session = ids.session AND m.role = 'user') AS turns,
    MAX(COALESCE((SELECT updated_at FROM sessions s WHERE s.id = ids.session), 0),
        COALESCE((SELECT MAX(updated_at) FROM inputs i WHERE i.session = ids.session), 0)) AS lastActivity,
    (SELECT COUNT(*) FROM messages m WHERE m.session = ids.session AND m.flag = 'cut_off') AS cutOff,
    (SELECT COUNT(*) FROM messages m WHERE m.session = ids.session AND m.flag = 'interrupted') AS interrupted,
    (SELECT COUNT(*) FROM inputs i WHERE i.session = ids.session AND i.state IN ('failed', 'dropped')) AS unanswered,
    (SELECT COUNT(*) FROM inputs i WHERE i.session = ids.session AND i.state IN ('queued', 'running')) AS open,
    (SELECT COUNT(*) FROM missed_outputs o WHERE o.session = ids.session) AS missed
  FROM ids`;

/** Every session, newest activity first; the kernel's own loop-back session only with `all`. */
export function listSessions(db: Database.Database, all = false): SessionSummary[] {
  const rows = db.prepare(`${SUMMARY_SQL} ORDER BY lastActivity DESC`).all() as SummaryRow[];
  return rows.filter((row) => all || row.session !== CONSOLIDATION_SOURCE).map(toSummary);
}

/** One session's entries, oldest first: the newest `limit`, within the answer's size bound. */
export function showSession(db: Database.Database, session: string, limit = 200): SessionsShowResult | undefined {
  const summary = db.prepare(`${SUMMARY_SQL} WHERE ids.session = ?`).get(session) as SummaryRow | undefined;
  if (!summary) return undefined;
  const messages = db
    .prepare(
      'SELECT role, content, tool_calls AS toolCalls, tool_call_id AS callId, tool_step AS step, flag, at, seq FROM messages WHERE session = ? ORDER BY seq DESC LIMIT ?',
    )
    .all(session, limit) as (MessageRow & { seq: number })[];
  const inputs = db
    .prepare('SELECT text, state, error, received_at AS at FROM inputs WHERE session = ? ORDER BY received_at DESC LIMIT ?')
    .all(session, limit) as { text: string; state: string; error: string | null; at: number }[];
  const oldest = messages.at(-1)?.seq ?? Number.MAX_SAFE_INTEGER;
  const agentCalls = db
    .prepare(
      `SELECT a.agent, a.call_id AS callId, a.name, a.args, a.result, a.tool_step AS step, a.at, a.after_seq AS afterSeq, m.at AS anchorAt
       FROM agent_calls a JOIN messages m ON m.session = a.session AND m.seq = a.after_seq
       WHERE a.session = ? AND a.after_seq >= ? ORDER BY a.after_seq DESC, a.rowid DESC LIMIT ?`,
    )
    .all(session, oldest, limit) as AgentCallRow[];
  // Sorted by when their turn was stored, then by order within it: a sub-agent's call right after the message it
  // followed (calls after the same message keep the order they ended in: the sort is stable), an unanswered input
  // after the messages stored before it.
  const timeline: { entry: SessionEntry; at: number; order: number }[] = [
    ...messages.map((m) => ({ entry: messageEntry(m), at: m.at, order: m.seq })),
    ...agentCalls.reverse().map((a) => ({ entry: agentCallEntry(a), at: a.anchorAt, order: a.afterSeq + 0.5 })),
    ...inputs.map((i) => ({ entry: inputEntry(i), at: i.at, order: Number.POSITIVE_INFINITY })),
  ];
  timeline.sort((a, b) => a.at - b.at || (a.order === b.order ? 0 : a.order < b.order ? -1 : 1));
  const kept: SessionEntry[] = [];
  let chars = 0;
  for (let i = timeline.length - 1; i >= 0 && kept.length < limit; i--) {
    const { entry } = timeline[i]!;
    chars += entry.text.length + (entry.error?.length ?? 0);
    if (chars > SHOW_MAX_CHARS && kept.length > 0) break;
    kept.push(entry);
  }
  kept.reverse();
  const total = (
    db
      .prepare(
        `SELECT (SELECT COUNT(*) FROM messages WHERE session = @session) + (SELECT COUNT(*) FROM inputs WHERE session = @session)
           + (SELECT COUNT(*) FROM agent_calls WHERE session = @session) AS n`,
      )
      .get({ session }) as { n: number }
  ).n;
  return { summary: toSummary(summary), entries: kept, omitted: Math.max(0, total - kept.length) };
}

function toSummary(row: SummaryRow): SessionSummary {
  return {
    session: row.session,
    owner: row.owner,
    turns: row.turns,
    last_activity: row.lastActivity,
    cut_off: row.cutOff,
    interrupted: row.interrupted,
    unanswered: row.unanswered,
    open: row.open,
    missed: row.missed,
  };
}

interface MessageRow {
  role: SessionEntry['role'];
  content: string;
  toolCalls: string | null;
  callId: string | null;
  step: string | null;
  flag: string | null;
  at: number;
}

function messageEntry(m: MessageRow): SessionEntry {
  const entry: SessionEntry = { role: m.role, at: m.at, text: shorten(m.content) };
  if (m.toolCalls) {
    const calls = JSON.parse(m.toolCalls) as { id: string; name: string; args: unknown }[];
    entry.tools = calls.map((call) => call.name);
    entry.calls = calls.map((call) => ({ id: call.id, name: call.name, args: shownArgs(call.args) }));
  }
  if (m.callId) entry.callId = m.callId;
  if (m.step) entry.step = JSON.parse(m.step) as NonNullable<SessionEntry['step']>;
  if (m.flag) entry.flag = m.flag as SessionEntryFlag;
  return entry;
}

interface AgentCallRow {
  agent: string;
  callId: string;
  name: string;
  args: string;
  result: string;
  step: string;
  at: number;
  afterSeq: number;
  anchorAt: number;
}

/** A sub-agent's call: one `tool` entry with the call, its result and how it went. */
function agentCallEntry(a: AgentCallRow): SessionEntry {
  return {
    role: 'tool',
    at: a.at,
    text: shorten(a.result),
    agent: a.agent,
    callId: a.callId,
    call: { id: a.callId, name: a.name, args: a.args },
    step: JSON.parse(a.step) as NonNullable<SessionEntry['step']>,
  };
}

function inputEntry(i: { text: string; state: string; error: string | null; at: number }): SessionEntry {
  const flag: SessionEntryFlag = i.state === 'queued' ? 'waiting' : (i.state as SessionEntryFlag);
  const entry: SessionEntry = { role: 'user', at: i.at, text: shorten(i.text), flag };
  if (i.error) entry.error = i.error;
  return entry;
}

function shorten(text: string): string {
  if (text.length <= SESSION_ENTRY_MAX_CHARS) return text;
  return `${text.slice(0, SESSION_ENTRY_MAX_CHARS)} … (${(text.length - SESSION_ENTRY_MAX_CHARS).toLocaleString('en-US')} more characters)`;
}
