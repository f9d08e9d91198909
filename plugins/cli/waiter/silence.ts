// How long waiter lets a turn stay silent after each item of its stream: the usual limit (chat/say's, or --timeout),
// none while a tool call runs (the kernel bounds each call by its own timeout, and a command may rightly print nothing
// for minutes), and, after a question, until it runs out of time plus the usual limit (a person may take that long).
import type { ChatStreamItem } from '../../../protocol';

/** Follows one turn's stream and answers the silence allowed after each item (ms; 0: no limit). */
export class TurnSilence {
  private readonly running = new Set<string>();

  constructor(
    private readonly usualMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The silence allowed after `item`. */
  after(item: ChatStreamItem): number {
    if (this.usualMs === 0) return 0;
    if (item.kind === 'tool' && item.tool) {
      if (item.tool.phase === 'end') this.running.delete(item.tool.id);
      else this.running.add(item.tool.id);
    }
    if (this.running.size > 0) return 0;
    if (item.ask) return this.usualMs + Math.max(0, Date.parse(item.ask.expiresAt) - this.now());
    return this.usualMs;
  }
}
