// What a person sees of a tool call (its arguments and result, cut to a size a card can show) and what the turn's
// log line says of it (name, duration, outcome).
import { MAX_TOOL_SHOWN_CHARS, type ToolCallOutcome } from '../../protocol';

/** How one tool call of a turn went: kept with its result in the session, said in the turn's log line. */
export interface ToolStep {
  /** How long it ran, in ms (from before its guard to after its after_toolcall stage). */
  ms: number;
  /** How it ended. */
  outcome: ToolCallOutcome;
  /** Why a guard refused it. */
  denied?: string;
}

/** A finished call of a turn, for its log line. */
export interface ToolCallRecord extends ToolStep {
  name: string;
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
