// One client's unsent output, watched: past a cap its requests wait, past a hard cap (or stuck) it is cut off.
import type { Socket } from 'node:net';
import { formatBytes, formatDuration } from '../../protocol/format';
import type { SocketLimits } from './limits';

/** What the outbox asks of its connection. */
export interface OutboxEvents {
  /** The client is behind: stop reading its requests. */
  congested(): void;
  /** The client caught up: read its requests again. */
  relieved(): void;
  /** The client does not read: disconnect it; `reason` says why, `facts` for the log. */
  overflow(reason: string, facts: Record<string, number>): void;
}

/**
 * Writes lines to a client and keeps what it has not read bounded. Past `pauseOutputBytes` it is
 * congested (the connection stops reading its requests, so it cannot ask for more) until the output
 * drains; past `maxOutputBytes`, or congested without reading a byte for `stallTimeoutMs`, it overflows.
 */
export class Outbox {
  private congested = false;
  private stallTimer: NodeJS.Timeout | undefined;
  private sentAtLastCheck = 0;
  private overflowed = false;

  constructor(
    private readonly socket: Socket,
    private readonly limits: () => SocketLimits,
    private readonly events: OutboxEvents,
  ) {
    socket.once('close', () => this.stop());
  }

  /** Whether the client is behind (its requests wait). */
  get isCongested(): boolean {
    return this.congested;
  }

  /** Writes one line (newline included) unless the socket can take no more. */
  write(line: string): void {
    const socket = this.socket;
    if (this.overflowed || socket.destroyed || !socket.writable) return;
    // As bytes: writableLength counts a string's UTF-16 units, bytesWritten its UTF-8 bytes.
    socket.write(Buffer.from(line, 'utf8'));
    this.check();
  }

  /** Stops watching (the connection closed). */
  stop(): void {
    clearTimeout(this.stallTimer);
    this.stallTimer = undefined;
  }

  private check(): void {
    const pending = this.socket.writableLength;
    const limits = this.limits();
    if (pending > limits.maxOutputBytes) {
      this.overflow(`its unsent output reached ${formatBytes(pending)}, past cli:output_max_mb (${formatBytes(limits.maxOutputBytes)})`, {
        unsentBytes: pending,
        maxOutputBytes: limits.maxOutputBytes,
      });
      return;
    }
    if (pending > limits.pauseOutputBytes && !this.congested) this.congest();
  }

  private congest(): void {
    this.congested = true;
    this.sentAtLastCheck = this.sent();
    this.events.congested();
    // write() returned false past the stream's high-water mark, so 'drain' comes once all is read.
    this.socket.once('drain', () => this.relieve());
    this.armStallCheck();
  }

  private relieve(): void {
    if (!this.congested || this.overflowed) return;
    this.congested = false;
    this.stop();
    this.events.relieved();
  }

  /** Each stall period, a congested client must have read something, else it overflows. */
  private armStallCheck(): void {
    const { stallTimeoutMs } = this.limits();
    this.stallTimer = setTimeout(() => {
      if (!this.congested || this.overflowed) return;
      const sent = this.sent();
      if (sent > this.sentAtLastCheck) {
        this.sentAtLastCheck = sent;
        this.armStallCheck();
        return;
      }
      const pending = this.socket.writableLength;
      this.overflow(`it read nothing for ${formatDuration(stallTimeoutMs)} (cli:output_stall_timeout) with ${formatBytes(pending)} unsent`, {
        unsentBytes: pending,
        stallTimeoutMs,
      });
    }, stallTimeoutMs);
  }

  /** Bytes the client has taken so far: everything written minus what still waits. */
  private sent(): number {
    return this.socket.bytesWritten - this.socket.writableLength;
  }

  private overflow(reason: string, facts: Record<string, number>): void {
    if (this.overflowed) return;
    this.overflowed = true;
    this.stop();
    this.events.overflow(reason, facts);
  }
}
