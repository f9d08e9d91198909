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
import { ErrorCodes, haError } from '../errors';
import { formatBytes } from '../format';

/** Caps on one frame; a frame past them is a protocol violation that ends the connection. */
export interface WireLimits {
  /** Most bytes of header (everything before the blank line). */
  maxHeaderBytes: number;
  /** Most bytes of one JSON body. */
  maxBodyBytes: number;
}

/** The body cap both ends use unless the kernel's `core.wire.max_body_bytes` says otherwise: no message may be bigger. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export const DEFAULT_WIRE_LIMITS: WireLimits = { maxHeaderBytes: 8 * 1024, maxBodyBytes: MAX_BODY_BYTES };

/** The variable that hands the kernel's wire limits to a plugin host, so both ends read and write by the same caps. */
export const WIRE_LIMITS_ENV = 'HOMEAGENT_WIRE_LIMITS';

/** The environment entry that gives a plugin host these limits. */
export function wireLimitsEnv(limits: WireLimits): Record<string, string> {
  return { [WIRE_LIMITS_ENV]: `${limits.maxHeaderBytes},${limits.maxBodyBytes}` };
}

/** The limits a plugin host was given; the defaults when none (or nonsense) was given. */
export function wireLimitsFromEnv(env: NodeJS.ProcessEnv): WireLimits {
  const [header, body] = (env[WIRE_LIMITS_ENV] ?? '').split(',').map(Number);
  if (!header || !body || !Number.isSafeInteger(header) || !Number.isSafeInteger(body) || header < 1 || body < 1) return DEFAULT_WIRE_LIMITS;
  return { maxHeaderBytes: header, maxBodyBytes: body };
}

/**
 * Exit code of a plugin host whose wire broke (it got a frame it cannot read: see WireViolation). It says so on
 * stderr in a line starting with WIRE_ERROR_MARK and exits at once; the kernel reports the exit as `wire-error`.
 * 76 is EX_PROTOCOL of sysexits.h.
 */
export const WIRE_ERROR_EXIT_CODE = 76;

/** How the plugin host's last stderr line before a wire-error exit starts; the reason follows it. */
export const WIRE_ERROR_MARK = 'homeagent plugin host: wire error: ';

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
  private callback: DataCallback | undefined;
  private held: Message[] = [];

  constructor(
    private readonly readable: NodeJS.ReadableStream,
    private readonly limits: WireLimits = DEFAULT_WIRE_LIMITS,
    private readonly intercept?: MessageIntercept,
  ) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    for (const message of this.held.splice(0)) callback(message);
    const onData = (chunk: Buffer): void => this.consume(chunk, callback);
    const onError = (error: Error): void => this.fireError(error);
    const onClose = (): void => this.fireClose();
    this.readable.on('data', onData);
    this.readable.on('error', onError);
    this.readable.on('close', onClose);
    return Disposable.create(() => {
      this.callback = undefined;
      this.readable.off('data', onData);
      this.readable.off('error', onError);
      this.readable.off('close', onClose);
    });
  }

  /** Hands the connection a message that did not come over the wire (the answer to a request refused before sending). */
  deliver(message: Message): void {
    if (this.callback) this.callback(message);
    else this.held.push(message);
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
          return this.fail(new WireViolation(`frame announces ${length} bytes, more than the ${this.limits.maxBodyBytes} byte cap`, 'body-too-large'));
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
 * No frame over the body cap leaves: the peer would refuse it and end the connection. Such a message is
 * refused here instead (see `refuse`), so only the call that made it fails.
 */
export class BatchingMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private queue: string[] = [];
  private scheduled = false;
  // Methods of the requests received and not answered yet, so an answer too big to send can say what it answers.
  private readonly unanswered = new Map<number | string, string>();

  /**
   * @param maxBodyBytes the peer's body cap.
   * @param answerLocally gives the connection the error answer of a request refused here (createWireConnection
   *   wires it to the reader); without it such a request throws from inside sendRequest, where nothing catches it.
   */
  constructor(
    private readonly writable: NodeJS.WritableStream & { destroyed?: boolean },
    private readonly maxBodyBytes: number = MAX_BODY_BYTES,
    private readonly answerLocally?: (answer: Message) => void,
  ) {
    super();
    writable.on('error', (error: Error) => this.fireError(error));
    writable.on('close', () => this.fireClose());
  }

  /** Notes a request this end received, which a later answer will name. */
  expectAnswer(id: number | string, method: string): void {
    this.unanswered.set(id, method);
  }

  write(message: Message): Promise<void> {
    const body = JSON.stringify(message);
    const bytes = Buffer.byteLength(body, 'utf8');
    const answered = (message as { id?: unknown; method?: unknown }).method === undefined ? (message as { id?: number | string | null }).id : undefined;
    const method = answered === undefined || answered === null ? undefined : this.unanswered.get(answered);
    if (method !== undefined) this.unanswered.delete(answered as number | string);
    if (bytes > this.maxBodyBytes) return this.refuse(message, bytes, method);
    this.enqueue(body, bytes);
    return WRITTEN;
  }

  private enqueue(body: string, bytes: number): void {
    this.queue.push(`Content-Length: ${bytes}\r\n\r\n`, body);
    if (!this.scheduled) {
      this.scheduled = true;
      waitingWriters.add(this);
      process.nextTick(this.flush);
    }
  }

  end(): void {
    this.flush();
  }

  /**
   * Refuses a message over the cap, so that its sender learns it at once: an answer is replaced by an error answer
   * for the same id; a request is answered here with that error (never sent, nothing waits on it); a notification
   * throws it to the caller of sendNotification.
   */
  private refuse(message: Message, bytes: number, answers: string | undefined): Promise<void> {
    const { id, method } = message as { id?: number | string | null; method?: string };
    if (method === undefined) {
      const error = messageTooLarge(`the answer to ${answers ?? 'a request'}`, answers, bytes, this.maxBodyBytes, 'ask for less in one call');
      const body = JSON.stringify({ jsonrpc: '2.0', id: id ?? null, error: error.toJson() });
      this.enqueue(body, Buffer.byteLength(body, 'utf8'));
      return WRITTEN;
    }
    const error = messageTooLarge(
      `${method} ${id === undefined ? 'notification' : 'request'}`,
      method,
      bytes,
      this.maxBodyBytes,
      'send less at once: split it, or keep big data in a file and pass its path',
    );
    if (id === undefined || id === null || !this.answerLocally) throw error;
    this.answerLocally({ jsonrpc: '2.0', id, error: error.toJson() } as Message);
    return WRITTEN;
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

/** The error for a message over the body cap: what it was, how big, the cap, and what to do. */
function messageTooLarge(what: string, method: string | undefined, bytes: number, cap: number, todo: string): ReturnType<typeof haError> {
  return haError(
    ErrorCodes.MessageTooLarge,
    `${what} is ${formatBytes(bytes)}, more than the ${formatBytes(cap)} one message between homed and a plugin may carry; it was not sent. To fix: ${todo}`,
    { ...(method === undefined ? {} : { method }), bytes, cap },
  );
}

/** A JSON-RPC connection over a duplex byte stream, with capped framing both ways. */
export function createWireConnection(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  limits: WireLimits = DEFAULT_WIRE_LIMITS,
  intercept?: MessageIntercept,
): { connection: MessageConnection; reader: CappedMessageReader; writer: BatchingMessageWriter } {
  batchMessageDispatch();
  // The writer learns which requests came in (to name them in an answer too big to send) from the reader,
  // and hands the reader the error answer of a request too big to send.
  let reader: CappedMessageReader | undefined;
  const writer = new BatchingMessageWriter(output, limits.maxBodyBytes, (answer) => reader?.deliver(answer));
  const see: MessageIntercept = (message) => {
    if (intercept?.(message)) return true;
    const { id, method } = message as { id?: number | string | null; method?: string };
    if (method !== undefined && id !== undefined && id !== null) writer.expectAnswer(id, method);
    return false;
  };
  reader = new CappedMessageReader(input, limits, see);
  const connection = createMessageConnection(reader, writer);
  return { connection, reader, writer };
}
