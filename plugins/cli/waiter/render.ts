// How waiter shows what homed streams: answer text as it comes, notes on lines of their own.
import type { ChatSayResult, ChatStreamItem, OutputAsk } from '../../../protocol';
import { ToolLines } from './tool-lines';

/** Where a printer writes: the answer's text, and whole lines of notes (tools used, missed turns). */
export interface PrinterSinks {
  answer(text: string): void;
  note(line: string): void;
  /** Whether notes share the answer's screen, so a note must start on a fresh line. */
  sameScreen: boolean;
  /** Whether notes go to a terminal, where a running tool's output is dimmed. */
  dim?: boolean;
  /** Puts a question to the person (instead of printing its notice), the answer's line ended first. */
  ask?(ask: OutputAsk): void;
}

/** Prints one answer: deltas as they arrive, notes between them, the final text if nothing streamed. */
export class AnswerPrinter {
  private streamed = false;
  private midLine = false;
  private readonly tools: ToolLines;

  constructor(private readonly sinks: PrinterSinks) {
    this.tools = new ToolLines(sinks.dim === true);
  }

  /** Shows one stream item of chat/say. */
  show(item: ChatStreamItem): void {
    if (item.kind === 'delta') {
      this.write(item.text ?? '');
      this.streamed ||= (item.text ?? '') !== '';
    } else if (item.kind === 'notice' && item.ask && this.sinks.ask) {
      if (this.sinks.sameScreen) this.endLine();
      this.sinks.ask(item.ask);
    } else if (item.kind === 'notice') {
      this.noteLine(renderNotice(item.text ?? ''));
    } else if (item.kind === 'missed') {
      this.noteLine(renderMissed(item));
    } else if (item.kind === 'tool' && item.tool) {
      for (const line of this.tools.take(item.tool)) this.noteLine(line);
    }
  }

  /** Ends the answer: prints its text if no delta carried it, and ends the line. */
  finish(result: ChatSayResult | null): void {
    if (result && !this.streamed && result.text !== '') this.write(result.text);
    this.endLine();
  }

  /** Ends the current line of the answer, if one is open. */
  endLine(): void {
    if (this.midLine) this.write('\n');
  }

  private noteLine(line: string): void {
    if (this.sinks.sameScreen) this.endLine();
    this.sinks.note(line);
  }

  private write(text: string): void {
    if (text === '') return;
    this.sinks.answer(text);
    this.midLine = !text.endsWith('\n');
  }
}

/** A line for the person about what the agent does, e.g. `· using timer_set`. */
export function renderNotice(text: string): string {
  return `· ${text}`;
}

/** A turn that finished while nobody listened, with when: `[14:05, while you were away] …`. */
export function renderMissed(item: ChatStreamItem, now: number = Date.now()): string {
  const when = item.at === undefined ? 'earlier' : formatWhen(item.at, now);
  return `[${when}, while you were away] ${renderOutcome(item)}`;
}

/** A turn nobody asked for in this waiter (a timer firing): `[14:05] …`. */
export function renderUnasked(item: ChatStreamItem, now: number = Date.now()): string {
  return `[${formatWhen(now, now)}] ${renderOutcome(item)}`;
}

/** The end of a turn as text: its answer, or its error with the catalogue name. */
export function renderOutcome(item: ChatStreamItem): string {
  if (item.error !== undefined) {
    const what = item.text ? `${item.text}: ` : '';
    return `${what}error: ${item.error}${item.code ? ` (${item.code})` : ''}`;
  }
  return `${item.text ?? ''}${item.interrupted ? ' (interrupted)' : ''}`;
}

/** `14:05` today, `Mar 3 14:05` on another day (local time). */
export function formatWhen(at: number, now: number): string {
  const date = new Date(at);
  const time = `${pad2(date.getHours())}:${pad2(date.getMinutes())}`;
  if (new Date(now).toDateString() === date.toDateString()) return time;
  return `${date.toLocaleString('en', { month: 'short' })} ${date.getDate()} ${time}`;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}
