// Splits a byte stream into newline-terminated lines, refusing any line longer than a cap.

/** What one chunk yielded: the complete lines, and whether a line went past the cap. */
export interface SplitResult {
  lines: string[];
  overflow: boolean;
}

/** Buffers bytes until a newline; a line longer than `maxBytes` (newline excluded) is an overflow. */
export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  private overflowed = false;

  constructor(private readonly maxBytes: number) {}

  /** Feeds one chunk; after an overflow every later chunk is ignored. */
  push(chunk: Buffer): SplitResult {
    const lines: string[] = [];
    if (this.overflowed) return { lines, overflow: true };
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(10, start);
      const piece = chunk.subarray(start, end < 0 ? chunk.length : end);
      if (this.size + piece.length > this.maxBytes) return this.overflow(lines);
      if (end < 0) {
        if (piece.length > 0) this.keep(piece);
        return { lines, overflow: false };
      }
      lines.push(this.takeLine(piece));
      start = end + 1;
    }
  }

  /** At the end of the stream: the last line if it had no newline (a client that half-closed after it), else undefined. */
  flush(): string | undefined {
    if (this.overflowed || this.parts.length === 0) return undefined;
    return this.takeLine(Buffer.alloc(0));
  }

  private keep(piece: Buffer): void {
    // Copy: the caller's chunk may be a pooled buffer that is reused.
    this.parts.push(Buffer.from(piece));
    this.size += piece.length;
  }

  private takeLine(last: Buffer): string {
    const bytes = this.parts.length === 0 ? last : Buffer.concat([...this.parts, last]);
    this.parts = [];
    this.size = 0;
    const text = bytes.toString('utf8');
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  }

  private overflow(lines: string[]): SplitResult {
    this.overflowed = true;
    this.parts = [];
    this.size = 0;
    return { lines, overflow: true };
  }
}
