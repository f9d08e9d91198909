// The command's output streamed to the person as it comes, coalesced: at most one piece per interval, each holding
// at most a chunk of the newest bytes. A flood (10 MB in a second) becomes a few pieces that say what was skipped.
import { StringDecoder } from 'node:string_decoder';
import { formatBytes } from '../../protocol/format';

export interface ProgressOptions {
  everyMs: number;
  chunkBytes: number;
}

/** Buffers output and sends it through `send` at most every `everyMs`. */
export class ProgressStream {
  private readonly decoder = new StringDecoder('utf8');
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skipped = 0;
  private timer: NodeJS.Timeout | undefined;
  private lastSent = 0;
  /** Pieces sent so far. */
  sent = 0;

  constructor(
    private readonly send: (text: string) => void,
    private readonly options: ProgressOptions,
  ) {}

  add(chunk: Buffer): void {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    this.dropOld();
    if (this.timer) return;
    const wait = Math.max(0, this.lastSent + this.options.everyMs - Date.now());
    this.timer = setTimeout(() => this.flush(), wait);
  }

  /** Sends what is buffered now (at the end of the command). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pendingBytes === 0 && this.skipped === 0) return;
    const marker = this.skipped > 0 ? `[… ${formatBytes(this.skipped)} of output not shown …]\n` : '';
    const text = marker + this.decoder.write(Buffer.concat(this.pending));
    this.pending = [];
    this.pendingBytes = 0;
    this.skipped = 0;
    this.lastSent = Date.now();
    if (text === '') return;
    this.sent += 1;
    this.send(text);
  }

  /** Stops sending; nothing buffered is sent. */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = [];
    this.pendingBytes = 0;
  }

  private dropOld(): void {
    while (this.pendingBytes > this.options.chunkBytes) {
      const first = this.pending[0] as Buffer;
      const excess = this.pendingBytes - this.options.chunkBytes;
      const drop = Math.min(first.length, excess);
      if (drop === first.length) this.pending.shift();
      else this.pending[0] = first.subarray(drop);
      this.pendingBytes -= drop;
      this.skipped += drop;
    }
  }
}
