import { objectSchema, request } from './descriptor';
import { BOOLEAN_FIELD, SESSION_FIELD, wholeNumberField } from './fields';
import type { ToolCallOutcome } from './io';
import { MAX_SESSION_ENTRIES } from './limits';

/** One conversation, as `homectl sessions list` shows it. */
export interface SessionSummary {
  /** Session id, e.g. `cli:alice`. */
  session: string;
  /** Plugin that last brought a person's input to it (where its answers go), if any. */
  owner: string | null;
  /** Turns stored (a turn starts at a person's message). */
  turns: number;
  /** Last activity (ms since epoch). */
  last_activity: number;
  /** Answers cut off because homed stopped while they ran. */
  cut_off: number;
  /** Answers stopped by an interrupt. */
  interrupted: number;
  /** Inputs that got no answer (the turn failed, or a stop ended them before they ran). */
  unanswered: number;
  /** Inputs waiting or running now. */
  open: number;
  /** Answers no client received (a timer's reminder while nobody was attached), kept for the session's next client. */
  missed: number;
}

/** sessions/list: which conversations to list. */
export interface SessionsListParams {
  /** Also the kernel's own sessions (`_consolidation_`). */
  all?: boolean;
}
export interface SessionsListResult {
  /** Newest activity first. */
  sessions: SessionSummary[];
}
/** plugin → kernel (needs `admin`): every conversation with its last activity, turn count and owner. */
export const SessionsListRequest = request<SessionsListParams, SessionsListResult>('sessions/list', {
  params: objectSchema({ all: BOOLEAN_FIELD }),
  permission: 'admin',
});

/** How an entry of a conversation ended, when it did not end as a plain answer. */
export type SessionEntryFlag = 'interrupted' | 'cut_off' | 'capped' | 'failed' | 'dropped' | 'waiting' | 'running';

/** One line of a conversation. */
export interface SessionEntry {
  /** `user`, `assistant`, `tool` or `system` (interrupt texts); an input that got no answer is `user` with a flag. */
  role: 'user' | 'assistant' | 'tool' | 'system';
  /** When it was stored (ms since epoch). */
  at: number;
  /** Its text, shortened past `SESSION_ENTRY_MAX_CHARS` with a note of how much was left out. */
  text: string;
  /** Tools the assistant called in this message. */
  tools?: string[];
  /** The calls of an assistant message: id, tool name, arguments as JSON (cut past MAX_TOOL_SHOWN_CHARS). */
  calls?: { id: string; name: string; args: string }[];
  /** For a `tool` entry (its text is the result): the call it answers. */
  callId?: string;
  /**
   * For a sub-agent's call (a `tool` entry that holds the whole call, placed after the message it followed): the
   * sub-agent (`child-1`; nested, `child-1/child-2`). Its call is in `call`, its result in `text`.
   */
  agent?: string;
  /** A sub-agent's call: id, tool name, arguments as JSON (cut past MAX_TOOL_SHOWN_CHARS). */
  call?: { id: string; name: string; args: string };
  /** For a `tool` entry: how long its call ran and how it ended (absent for turns stored before this was kept). */
  step?: { ms: number; outcome: ToolCallOutcome; denied?: string };
  /** How it ended short, if it did. */
  flag?: SessionEntryFlag;
  /** Why an input got no answer. */
  error?: string;
}

/** sessions/show: which conversation, how much of it. */
export interface SessionsShowParams {
  /** Session id, e.g. `cli:alice`. */
  session: string;
  /** The newest this many entries (default 200). */
  limit?: number;
}
export interface SessionsShowResult {
  /** The conversation's counts. */
  summary: SessionSummary;
  /** Oldest first. */
  entries: SessionEntry[];
  /** Older entries left out by `limit` or by the answer's size bound. */
  omitted: number;
}
/** plugin → kernel (needs `admin`): a conversation with cut-off, interrupted and unanswered turns marked. */
export const SessionsShowRequest = request<SessionsShowParams, SessionsShowResult>('sessions/show', {
  params: objectSchema({ session: SESSION_FIELD, limit: wholeNumberField(1, MAX_SESSION_ENTRIES) }, ['session']),
  permission: 'admin',
});

/** Longest text of one entry in sessions/show; the rest is left out and said so. */
export const SESSION_ENTRY_MAX_CHARS = 20_000;
