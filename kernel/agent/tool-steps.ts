// What a person sees of a tool call (its arguments and result, cut to a size a card can show) and what the turn's
// log line says of it (name, duration, outcome).
import { MAX_TOOL_SHOWN_CHARS, type ToolCallOutcome } from '../../protocol';

/** How one tool call of a turn went: kept with its result in the session, said in the turn's log line. */
export interface ToolStep {
  /** How long it ran, in ms (from after its guards to after its after_toolcall stage; 0 for a denied call). */
  ms: number;
  /** How long its before_toolcall guards took, in ms: the wait for a person's approval is here, not in `ms`. */
  waitMs?: number;
  /** How it ended. */
  outcome: ToolCallOutcome;
  /** Why a guard refused it. */
  denied?: string;
}

/** A finished call of a turn, for its log line. */
export interface ToolCallRecord extends ToolStep {
  name: string;
}

/**
 * A sub-agent's finished call, kept by the turn that started the sub-agent and stored beside that turn's messages
 * (never in the conversation the model reads), so the person sees it in past turns too.
 */
export interface AgentCallRecord extends ToolStep {
  /** The sub-agent (`child-1`; nested, `child-1/child-2`). */
  agent: string;
  /** The call's id in its turn's steps (`child-1:call_3`). */
  id: string;
  name: string;
  /** Arguments as shown (cut). */
  args: string;
  /** The result as shown (cut). */
  result: string;
  /** How many messages the parent turn had added when the call ended: it is shown after the last of them. */
  after: number;
  /** When it ended (ms since epoch). */
  at: number;
}

/** Text cut past `max` characters, saying how long it was: `…[cut: 10,240 characters in all]`. */
export function shownText(text: string, max = MAX_TOOL_SHOWN_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}… [cut: ${text.length.toLocaleString('en-US')} characters in all]` : text;
}

/** A call's arguments as JSON, cut for showing. */
export function shownArgs(args: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(args ?? {});
  } catch {
    text = String(args);
  }
  return shownText(text);
}

/** `exec 12 ms ok, read_file 3 ms denied` — the tools of one turn for its log line; `no tools` without any. */
export function describeToolCalls(calls: readonly ToolCallRecord[]): string {
  if (calls.length === 0) return 'no tools';
  return calls.map((c) => `${c.name} ${c.ms} ms ${c.outcome}`).join(', ');
}
