import {
  AbstractMessageReader,
  AbstractMessageWriter,
  createMessageConnection,
  Disposable,
  type DataCallback,
  type Message,
  type MessageConnection,
  type MessageReader,
  type MessageWriter,
} from 'vscode-jsonrpc/node';
import { batchMessageDispatch } from './dispatch';

/** Caps on one frame; a frame past them is a protocol violation that ends the connection. */
export interface WireLimits {
  /** Most bytes of header (everything before the blank line). */
  maxHeaderBytes: number;
  /** Most bytes of one JSON body. */
  maxBodyBytes: number;
}

export const DEFAULT_WIRE_LIMITS: WireLimits = { maxHeaderBytes: 8 * 1024, maxBodyBytes: 4 * 1024 * 1024 };

/**
 * Sees every message as soon as its frame is complete, before the connection queues it;
 * answering true consumes it. This is how an interrupt overtakes queued work.
 */
export type MessageIntercept = (message: Message) => boolean;

/** A frame that breaks the wire's rules; `rule` names which. */
export class WireViolation extends Error {
  constructor(
    message: string,
    readonly rule: 'header-too-large' | 'body-too-large' | 'bad-header' | 'bad-json',
  ) {
    super(message);
    this.name = 'WireViolation';
  }
}

const HEADER_END = Buffer.from('\r\n\r\n', 'ascii');
const WRITTEN: Promise<void> = Promise.resolve();
const EMPTY = Buffer.alloc(0);

/**
 * Reads Content-Length framed JSON-RPC messages, enforcing WireLimits.
 * Unlike the stock reader it delivers every complete frame of a chunk at once, never waits
 * on a frame that announces more than the cap, and stops at the first violation.
 */
export class CappedMessageReader extends AbstractMessageReader implements MessageReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private bodyLength = -1;
  private failed = false;

  constructor(
    private readonly readable: NodeJS.ReadableStream,
    private readonly limits: WireLimits = DEFAULT_WIRE_LIMITS,
    private readonly intercept?: MessageIntercept,
  ) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    const onData = (chunk: Buffer): void => this.consume(chunk, callback);
    const onError = (error: Error): void => this.fireError(error);
    const onClose = (): void => this.fireClose();
    this.readable.on('data', onData);
    this.readable.on('error', onError);
    this.readable.on('close', onClose);
    return Disposable.create(() => {
      this.readable.off('data', onData);
      this.readable.off('error', onError);
      this.readable.off('close', onClose);
    });
  }

  private consume(chunk: Buffer, callback: DataCallback): void {
    if (this.failed) return;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    // A body still short of its length waits without copying anything.
    if (this.bodyLength >= 0 && this.buffered < this.bodyLength) return;
    let buf = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.buffered);
    let offset = 0;
    while (!this.failed) {
      if (this.bodyLength < 0) {
        const end = buf.indexOf(HEADER_END, offset);
        const headerBytes = (end < 0 ? buf.length : end) - offset;
        if (headerBytes > this.limits.maxHeaderBytes) {
          return this.fail(new WireViolation(`frame header exceeds ${this.limits.maxHeaderBytes} bytes`, 'header-too-large'));
        }
        if (end < 0) break;
        const plain = readPlainContentLength(buf, offset, end);
        const length = plain >= 0 ? plain : parseContentLength(buf.toString('ascii', offset, end));
        if (typeof length === 'string') return this.fail(new WireViolation(length, 'bad-header'));
        if (length > this.limits.maxBodyBytes) {
          return this.fail(
            new WireViolation(`frame announces ${length} bytes, more than the ${this.limits.maxBodyBytes} byte cap`, 'body-too-large'),
          );
        }
        this.bodyLength = length;
        offset = end + HEADER_END.length;
      }
      if (buf.length - offset < this.bodyLength) break;
      const text = buf.toString('utf8', offset, offset + this.bodyLength);
      offset += this.bodyLength;
      this.bodyLength = -1;
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        return this.fail(new WireViolation(`frame body is not JSON: ${JSON.stringify(text.slice(0, 80))}`, 'bad-json'));
      }
      if (typeof message !== 'object' || message === null || Array.isArray(message)) {
        return this.fail(new WireViolation('frame body is not a JSON-RPC message object', 'bad-json'));
      }
      if (this.intercept?.(message as Message)) continue;
      callback(message as Message);
    }
    buf = offset >= buf.length ? EMPTY : buf.subarray(offset);
    this.chunks = buf.length ? [buf] : [];
    this.buffered = buf.length;
  }

  private fail(error: WireViolation): void {
    this.failed = true;
    this.chunks = [];
    this.buffered = 0;
    this.fireError(error);
  }
}

const PLAIN_HEADER = Buffer.from('Content-Length: ', 'ascii');

/** The length from a header that is exactly `Content-Length: <digits>`, read from the bytes; -1 for any other header. */
function readPlainContentLength(buf: Buffer, start: number, end: number): number {
  const digitsAt = start + PLAIN_HEADER.length;
  if (end <= digitsAt || end - digitsAt > 12) return -1;
  if (buf.compare(PLAIN_HEADER, 0, PLAIN_HEADER.length, start, digitsAt) !== 0) return -1;
  let length = 0;
  for (let i = digitsAt; i < end; i++) {
    const digit = (buf[i] as number) - 48;
    if (digit < 0 || digit > 9) return -1;
    length = length * 10 + digit;
  }
  return length;
}

function parseContentLength(header: string): number | string {
  let length: number | undefined;
  for (const line of header.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) return `malformed header line ${JSON.stringify(line.slice(0, 80))}`;
    if (line.slice(0, colon).trim().toLowerCase() !== 'content-length') continue;
    const value = line.slice(colon + 1).trim();
    if (!/^\d{1,12}$/.test(value)) return `Content-Length ${JSON.stringify(value.slice(0, 40))} is not a byte count`;
    length = Number(value);
  }
  return length ?? 'frame header has no Content-Length';
}

// Writers holding frames for the end of this tick.
const waitingWriters = new Set<BatchingMessageWriter>();

/**
 * Sends the frames every writer of this process holds for the end of the tick now. A caller that has just
 * sent requests to several plugins calls it before working on something else, so the plugins work meanwhile.
 */
export function flushQueuedWrites(): void {
  for (const writer of [...waitingWriters]) writer.end();
}

/**
 * Writes Content-Length framed messages. Frames written in one tick leave in one write:
 * no per-message promise chain, no wait for the previous write's callback.
 */
export class BatchingMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private queue: string[] = [];
  private scheduled = false;

  constructor(private readonly writable: NodeJS.WritableStream & { destroyed?: boolean }) {
    super();
    writable.on('error', (error: Error) => this.fireError(error));
    writable.on('close', () => this.fireClose());
  }

  write(message: Message): Promise<void> {
    const body = JSON.stringify(message);
    this.queue.push(`Content-Length: ${Buffer.byteLength(body, 'utf8')}\r\n\r\n`, body);
    if (!this.scheduled) {
      this.scheduled = true;
      waitingWriters.add(this);
      process.nextTick(this.flush);
    }
    return WRITTEN;
  }

  end(): void {
    this.flush();
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    waitingWriters.delete(this);
    if (this.queue.length === 0) return;
    const data = this.queue.join('');
    this.queue = [];
    if (this.writable.destroyed) return;
    this.writable.write(data, 'utf8');
  };
}

/** A JSON-RPC connection over a duplex byte stream, with capped framing both ways. */
export function createWireConnection(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  limits: WireLimits = DEFAULT_WIRE_LIMITS,
  intercept?: MessageIntercept,
): { connection: MessageConnection; reader: CappedMessageReader; writer: BatchingMessageWriter } {
  batchMessageDispatch();
  const reader = new CappedMessageReader(input, limits, intercept);
  const writer = new BatchingMessageWriter(output);
  const connection = createMessageConnection(reader, writer);
  return { connection, reader, writer };
}
