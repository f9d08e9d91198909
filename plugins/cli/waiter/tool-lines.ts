// How waiter shows tool calls on stderr: a running call's output as it comes, each line prefixed with the tool's
// name (dimmed on a terminal), and one line when the call ends: `[tool] exec {"command":"ls"} → ok 12 ms`.
import { toolCallLabel, type ToolOutputEvent } from '../../../protocol';
import { formatDuration } from '../../../protocol/format';

/** Characters of a call's arguments on its end line; the rest is cut with `…`. */
const MAX_ARGS_ON_LINE = 120;

/** Turns tool steps into whole lines for stderr, keeping each running call's unfinished line until it ends. */
export class ToolLines {
  private readonly partial = new Map<string, string>();
  private readonly args = new Map<string, string>();

  constructor(private readonly dim: boolean) {}

  /** The lines to print for one step (none for a start or a progress piece without a line end). */
  take(event: ToolOutputEvent): string[] {
    if (event.phase === 'start') {
      this.args.set(event.id, event.args ?? '');
      return [];
    }
    if (event.phase === 'progress') {
      const text = (this.partial.get(event.id) ?? '') + (event.text ?? '');
      const lines = text.split('\n');
      this.partial.set(event.id, lines.pop() ?? '');
      return lines.map((line) => this.progressLine(toolCallLabel(event), line));
    }
    const rest = this.partial.get(event.id);
    const args = this.args.get(event.id) ?? event.args ?? '';
    this.partial.delete(event.id);
    this.args.delete(event.id);
    return [...(rest ? [this.progressLine(toolCallLabel(event), rest)] : []), renderToolEnd(event, args)];
  }

  private progressLine(name: string, line: string): string {
    const text = `  ${name} │ ${line}`;
    return this.dim ? `\u001b[2m${text}\u001b[22m` : text;
  }
}

/**
 * `[tool] exec {"command":"ls"} → ok 12 ms` (`[tool] child-1 › exec …` for a sub-agent's), or `→ denied: <reason> (3 ms)`;
 * a call that waited for its approval says so apart: `→ ok 12 ms, after 4.2 s waiting for approval`.
 */
export function renderToolEnd(event: ToolOutputEvent, args: string): string {
  const shown = args.length > MAX_ARGS_ON_LINE ? `${args.slice(0, MAX_ARGS_ON_LINE)}…` : args;
  const waited = (event.waitMs ?? 0) >= WAIT_SHOWN_MS ? `after ${formatDuration(event.waitMs as number)} waiting for approval` : undefined;
  const ms = `${event.ms ?? 0} ms`;
  const how =
    event.outcome === 'denied'
      ? `denied: ${event.denied ?? 'no reason given'} (${waited ?? ms})`
      : `${event.outcome ?? (event.isError ? 'error' : 'ok')} ${ms}${waited ? `, ${waited}` : ''}`;
  return `[tool] ${toolCallLabel(event)}${shown && shown !== '{}' ? ` ${shown}` : ''} → ${how}`;
}

/** Waits shorter than this are the guards' own work, not a person's: not worth a word on the line. */
const WAIT_SHOWN_MS = 1000;
