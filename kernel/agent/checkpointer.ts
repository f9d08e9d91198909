// Keeps a streaming answer in the journal at most once per interval, so a crash loses at most that much of it.
import type { InputJournal } from './input-journal';

/** Default interval between two checkpoints of a streaming answer. */
export const DEFAULT_CHECKPOINT_MS = 1000;

/** Collects an answer's text and writes it to its journal row on a timer while it grows. */
export class Checkpointer {
  private readonly parts: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly journal: InputJournal | undefined,
    private readonly inputId: string,
    private readonly intervalMs: number,
  ) {}

  /** A piece of the answer arrived; it is written with the next checkpoint. */
  add(text: string): void {
    if (!this.journal || this.stopped) return;
    this.parts.push(text);
    this.timer ??= setTimeout(() => this.write(), this.intervalMs);
  }

  /** The turn ended: no more checkpoints. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private write(): void {
    this.timer = undefined;
    if (this.stopped) return;
    try {
      this.journal?.checkpoint(this.inputId, this.parts.join(''));
    } catch {
      // A full disk: the previous checkpoint stays; the turn's own store reports the problem.
    }
  }
}
