// The output kept for the result: all of it up to a cap, else the first and the last half of the cap with a
// marker between them saying how much was cut.
import { formatBytes } from '../../protocol/format';

/** Collects a command's output (stdout and stderr in arrival order) within a byte cap. */
export class OutputCap {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(private readonly maxBytes: number) {}

  /** Bytes seen so far. */
  get seen(): number {
    return this.total;
  }

  /** Whether more came than the cap keeps. */
  get truncated(): boolean {
    return this.total > this.maxBytes;
  }

  add(chunk: Buffer): void {
    this.total += chunk.length;
    const headRoom = Math.ceil(this.maxBytes / 2) - this.headBytes;
    if (headRoom > 0) {
      const part = chunk.subarray(0, headRoom);
      this.head.push(part);
      this.headBytes += part.length;
      chunk = chunk.subarray(part.length);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    this.trimTail();
  }

  /** The kept text; a cut is marked `[… 9.9 MiB of output cut here (10.0 MiB in all; the first and last 32 KiB kept) …]`. */
  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = Buffer.concat(this.tail).toString('utf8');
    if (!this.truncated) return head + tail;
    const cut = this.total - this.headBytes - this.tailBytes;
    const kept = formatBytes(Math.floor(this.maxBytes / 2));
    return `${head}\n[… ${formatBytes(cut)} of output cut here (${formatBytes(this.total)} in all; the first and last ${kept} kept) …]\n${tail}`;
  }

  private trimTail(): void {
    const keep = Math.floor(this.maxBytes / 2);
    while (this.tailBytes > keep) {
      const first = this.tail[0] as Buffer;
      const excess = this.tailBytes - keep;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
      }
    }
  }
}
