// A line client of the cli socket for the surface test: sends lines as raw bytes (so a string may carry invalid
// UTF-8), matches each answer to its request by id, keeps the stream items that came before it, and reconnects
// when the server closed the connection (an overlong line ends it, by design).
import { connect, type Socket } from 'node:net';

/** How one request ended: its answer line, or why none came. */
export type SocketOutcome =
  | { kind: 'answer'; answer: Record<string, unknown>; streamed: number }
  | { kind: 'closed'; farewell: Record<string, unknown> | undefined }
  | { kind: 'silent'; afterMs: number; id: string };

interface Waiting {
  resolve(outcome: SocketOutcome): void;
  streamed: number;
  /** Resolves on the request's first stream item (for the calls that stream until cancelled). */
  onStream?: () => void;
}

/** One connection to the socket; `send` resolves with what came back for that request. */
export class SurfaceSocket {
  private socket: Socket | undefined;
  private buffer = Buffer.alloc(0);
  private readonly waiting = new Map<string, Waiting>();
  /** The last line without an id (a farewell: line too long, idle, too many clients). */
  private farewell: Record<string, unknown> | undefined;
  /** Lines that answered no request of ours (an error to a line whose id could not be read), since the last `sendRaw`. */
  private stray: Record<string, unknown>[] = [];
  private nextId = 1;

  constructor(private readonly path: string) {}

  /** Sends `line(id)` and resolves with its answer, the connection's end, or silence past `timeoutMs`. */
  async send(line: (id: string) => Buffer, timeoutMs: number, options: { untilStream?: boolean } = {}): Promise<SocketOutcome> {
    const socket = await this.connected();
    const id = `s${this.nextId++}`;
    return new Promise<SocketOutcome>((resolve) => {
      const timer = setTimeout(() => finish({ kind: 'silent', afterMs: timeoutMs, id }), timeoutMs);
      const finish = (outcome: SocketOutcome): void => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(outcome);
      };
      const waiting: Waiting = { resolve: finish, streamed: 0 };
      if (options.untilStream) waiting.onStream = () => finish({ kind: 'answer', answer: { id, stream: true }, streamed: waiting.streamed });
      this.waiting.set(id, waiting);
      socket.write(line(id));
    });
  }

  /** Cancels a streaming request (`$/cancel`) and resolves with its final answer, which must still come. */
  async cancel(id: string, cancelLine: Buffer, timeoutMs: number): Promise<SocketOutcome> {
    const socket = await this.connected();
    return new Promise<SocketOutcome>((resolve) => {
      const timer = setTimeout(() => finish({ kind: 'silent', afterMs: timeoutMs, id }), timeoutMs);
      const finish = (outcome: SocketOutcome): void => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(outcome);
      };
      this.waiting.set(id, { resolve: finish, streamed: 0 });
      socket.write(cancelLine);
    });
  }

  /**
   * Sends `raw` as it is, then a request (`probe`) whose answer marks the end of what `raw` got: resolves with the
   * lines that came for `raw` (none for a notification) and the probe's own outcome.
   */
  async sendRaw(raw: Buffer, probe: (id: string) => Buffer, timeoutMs: number): Promise<{ lines: Record<string, unknown>[]; probe: SocketOutcome }> {
    (await this.connected()).write(raw);
    this.stray = [];
    const outcome = await this.send(probe, timeoutMs);
    return { lines: this.stray.splice(0), probe: outcome };
  }

  /** Sends a line no answer is expected for (a notification). */
  async notify(line: Buffer): Promise<void> {
    (await this.connected()).write(line);
  }

  /** Closes the connection (ending whatever it streams); the next send opens another. */
  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }

  private async connected(): Promise<Socket> {
    if (this.socket && !this.socket.destroyed) return this.socket;
    const socket = await new Promise<Socket>((resolve, reject) => {
      const s = connect(this.path);
      s.once('error', reject);
      s.once('connect', () => {
        s.off('error', reject);
        resolve(s);
      });
    });
    this.buffer = Buffer.alloc(0);
    this.farewell = undefined;
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (this.socket === socket) this.socket = undefined;
      for (const waiting of [...this.waiting.values()]) waiting.resolve({ kind: 'closed', farewell: this.farewell });
    });
    this.socket = socket;
    return socket;
  }

  private read(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    let nl: number;
    while ((nl = this.buffer.indexOf(10)) >= 0) {
      const text = this.buffer.subarray(0, nl).toString('utf8');
      this.buffer = this.buffer.subarray(nl + 1);
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(text) as Record<string, unknown>;
      } catch {
        line = { unparsable: text.slice(0, 200) };
      }
      const id = typeof line['id'] === 'string' ? line['id'] : undefined;
      const waiting = id === undefined ? undefined : this.waiting.get(id);
      if (!waiting) {
        if (id === undefined || line['id'] === null) this.farewell = line;
        this.stray.push(line);
        continue;
      }
      if ('stream' in line && !('result' in line) && !('error' in line)) {
        waiting.streamed += 1;
        waiting.onStream?.();
        continue;
      }
      waiting.resolve({ kind: 'answer', answer: line, streamed: waiting.streamed });
    }
  }
}
