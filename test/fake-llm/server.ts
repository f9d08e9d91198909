// A fake LLM provider for tests and benchmarks: a real node:http server on 127.0.0.1 that speaks the
// OpenAI chat-completions (SSE), Anthropic messages (SSE) and Ollama chat (NDJSON) wire formats, plays
// queued answers (recorded stream files, scripts, hangs, or answers made from the request), and records
// every request and every connection.
import { setMaxListeners } from 'node:events';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import * as path from 'node:path';
import type { TestContext } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { renderErrorBody, renderKeepAlive, renderScript, STREAM_TYPES, type FakeScript, type FakeWire } from './render';

export type { FakeKeepAlive, FakeScript, FakeToolCall, FakeWire } from './render';

/** Replays a recorded file as the body: `.sse` event by event, `.ndjson` line by line, anything else whole. */
export interface FakeReplay {
  replay: string;
  status?: number;
  headers?: Record<string, string>;
  /** Wait between two chunks. */
  chunkDelayMs?: number;
  /** Cuts the file every N bytes instead of at record boundaries (to test parsers across splits). */
  splitEvery?: number;
  /** Destroys the connection after this many chunks. */
  cutAfterChunks?: number;
}

/** A literal answer. */
export interface FakeRaw {
  status: number;
  headers?: Record<string, string>;
  body: string | object;
}

/** Never sends the response headers: the request is held until the client goes (or the fake closes). */
export interface FakeHang {
  hang: 'no-headers';
}

/** What the fake answers one request with. */
export type FakeResponse = FakeScript | FakeReplay | FakeRaw | FakeHang;

/** Makes the answer from the request itself (e.g. echo its last user message with lastUserText); queued or as the default like a response. */
export type FakeResponder = (request: FakeRequest) => FakeResponse;

/** One TCP connection a client opened; times are performance.now() in this process. */
export interface FakeConnection {
  id: number;
  remotePort: number;
  openedAt: number;
  /** When the socket closed, if it has. */
  closedAt: number | undefined;
  /** It closed while a response was still being written (the client aborted, or the script cut it). */
  closedEarly: boolean;
  /** Who closed it early: the client, or the fake itself (`cutAfterChunks`). */
  closedBy: 'client' | 'server' | undefined;
  /** Requests served on it. */
  requests: number;
  /** Resolves when the socket closes. */
  closed: Promise<void>;
}

/** One request the fake received. */
export interface FakeRequest {
  index: number;
  method: string;
  path: string;
  wire: FakeWire | undefined;
  headers: http.IncomingHttpHeaders;
  /** The body parsed as JSON (undefined if it was not JSON). */
  body: unknown;
  rawBody: string;
  receivedAt: number;
  /** When the last byte of the answer was written, if it was. */
  finishedAt: number | undefined;
  /** Chunks written so far. */
  chunksWritten: number;
  /** When the first chunk of the answer was written, if one was. */
  firstChunkAt: number | undefined;
  /** When each chunk was written. */
  chunkTimes: number[];
  /** Keep-alives written (not counted in chunksWritten). */
  keepAlivesWritten: number;
  connection: FakeConnection;
}

export interface FakeLlm {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  readonly port: number;
  /** The base URL a provider of that wire is configured with (`…/v1` for OpenAI). */
  baseUrl(wire: FakeWire): string;
  /** Queues answers, served in order to the next requests. */
  enqueue(...responses: (FakeResponse | FakeResponder)[]): void;
  /** The answer used when the queue is empty (default: an HTTP 400 saying nothing was queued). */
  setDefault(response: FakeResponse | FakeResponder | undefined): void;
  /** Answers still queued. */
  readonly pending: number;
  /** Requests being answered right now (held hangs and stalls included). */
  readonly active: number;
  /** The most requests ever answered at once. */
  readonly maxActive: number;
  /** Resolves once no request is being answered (a held one ends when its client goes). */
  whenIdle(timeoutMs?: number): Promise<void>;
  readonly requests: readonly FakeRequest[];
  readonly connections: readonly FakeConnection[];
  /** Resolves once `count` requests have arrived. */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  /** Closes every connection and the server. */
  close(): Promise<void>;
}

const WIRES: Record<string, FakeWire> = {
  '/v1/chat/completions': 'openai',
  '/v1/messages': 'anthropic',
  '/api/chat': 'ollama',
  '/api/generate': 'ollama',
};

/** Starts a fake LLM that closes after the test `t`. */
export async function startFakeLlmFor(t: TestContext): Promise<FakeLlm> {
  const llm = await startFakeLlm();
  t.after(() => llm.close());
  return llm;
}

/** Starts a fake LLM server on 127.0.0.1 at a random port. */
export async function startFakeLlm(): Promise<FakeLlm> {
  const queue: (FakeResponse | FakeResponder)[] = [];
  let fallback: FakeResponse | FakeResponder | undefined;
  let active = 0;
  let maxActive = 0;
  const requests: FakeRequest[] = [];
  const connections: FakeConnection[] = [];
  const bySocket = new WeakMap<Socket, { connection: FakeConnection; writing: boolean }>();
  const waiters: { count: number; resolve: () => void }[] = [];
  let idleWaiters: (() => void)[] = [];
  const stop = new AbortController();
  setMaxListeners(0, stop.signal); // one listener per request being answered

  const server = http.createServer((req, res) => {
    void serve(req, res).catch(() => res.destroy());
  });
  server.keepAliveTimeout = 30_000;
  server.on('connection', (socket) => {
    let onClosed: () => void = () => undefined;
    const connection: FakeConnection = {
      id: connections.length + 1,
      remotePort: socket.remotePort ?? 0,
      openedAt: performance.now(),
      closedAt: undefined,
      closedEarly: false,
      closedBy: undefined,
      requests: 0,
      closed: new Promise<void>((resolve) => (onClosed = resolve)),
    };
    const state = { connection, writing: false };
    connections.push(connection);
    bySocket.set(socket, state);
    socket.on('close', () => {
      connection.closedAt = performance.now();
      if (state.writing) {
        connection.closedEarly = true;
        connection.closedBy ??= 'client';
      }
      onClosed();
    });
  });

  async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    const state = bySocket.get(req.socket);
    if (state === undefined) throw new Error('fake-llm: request on an unknown socket');
    state.connection.requests++;
    state.writing = true;
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const urlPath = (req.url ?? '/').split('?')[0] ?? '/';
    const record: FakeRequest = {
      index: requests.length,
      method: req.method ?? 'GET',
      path: urlPath,
      wire: WIRES[urlPath],
      headers: req.headers,
      body: parseJson(rawBody),
      rawBody,
      receivedAt: performance.now(),
      finishedAt: undefined,
      chunksWritten: 0,
      firstChunkAt: undefined,
      chunkTimes: [],
      keepAlivesWritten: 0,
      connection: state.connection,
    };
    requests.push(record);
    for (const waiter of waiters.filter((w) => requests.length >= w.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    active++;
    maxActive = Math.max(maxActive, active);
    try {
      await answer(record, res);
    } finally {
      active--;
      state.writing = false;
      if (active === 0) for (const resolve of idleWaiters.splice(0)) resolve();
    }
  }

  async function answer(record: FakeRequest, res: http.ServerResponse): Promise<void> {
    if (record.wire === undefined) return writeWhole(record, res, 404, {}, { error: `fake-llm: no endpoint ${record.path}` });
    const next = queue.shift() ?? fallback;
    const response = typeof next === 'function' ? next(record) : next;
    if (response === undefined) {
      return writeWhole(record, res, 400, {}, renderErrorBody(record.wire, 400, `fake-llm: no response queued for request #${record.index} (${record.path})`));
    }
    if ('hang' in response) return void (await untilGone(watchGone(res)));
    if ('replay' in response) return replay(record, res, response);
    if ('body' in response && 'status' in response) return writeWhole(record, res, response.status, response.headers ?? {}, response.body);
    return play(record, res, response);
  }

  async function play(record: FakeRequest, res: http.ServerResponse, script: FakeScript): Promise<void> {
    const wire = record.wire as FakeWire;
    if (script.error) {
      const headers: Record<string, string> = { ...script.error.headers };
      if (script.error.retryAfter !== undefined) headers['retry-after'] = String(script.error.retryAfter);
      return writeWhole(
        record,
        res,
        script.error.status,
        headers,
        script.error.body ?? renderErrorBody(wire, script.error.status, `fake-llm error ${script.error.status}`),
      );
    }
    const model = typeof (record.body as { model?: unknown } | undefined)?.model === 'string' ? (record.body as { model: string }).model : 'fake-model';
    const chunks = renderScript(wire, script, model);
    const options: StreamOptions = { firstDelayMs: script.firstTokenDelayMs ?? 0, delayMs: script.tokenDelayMs ?? 0 };
    if (script.cutAfterChunks !== undefined) options.cutAfter = script.cutAfterChunks;
    if (script.stallAfterChunks !== undefined) options.stallAfter = script.stallAfterChunks;
    if (script.headersDelayMs !== undefined) options.headersDelayMs = script.headersDelayMs;
    if (script.keepAlive !== undefined) options.keepAlive = { text: renderKeepAlive(wire, script.keepAlive.kind, model), everyMs: script.keepAlive.everyMs };
    return writeStream(record, res, 200, { 'content-type': STREAM_TYPES[wire] }, chunks, options);
  }

  async function replay(record: FakeRequest, res: http.ServerResponse, response: FakeReplay): Promise<void> {
    const text = fs.readFileSync(response.replay, 'utf8');
    const ext = path.extname(response.replay);
    const type = ext === '.sse' ? 'text/event-stream' : ext === '.ndjson' ? 'application/x-ndjson' : 'application/json';
    const status = response.status ?? 200;
    const headers = { 'content-type': type, ...response.headers };
    if (type === 'application/json' && response.splitEvery === undefined) return writeWhole(record, res, status, headers, text);
    const chunks = response.splitEvery !== undefined ? splitEvery(text, response.splitEvery) : ext === '.sse' ? splitRecords(text) : splitLines(text);
    const options: StreamOptions = { firstDelayMs: 0, delayMs: response.chunkDelayMs ?? 0 };
    if (response.cutAfterChunks !== undefined) options.cutAfter = response.cutAfterChunks;
    return writeStream(record, res, status, headers, chunks, options);
  }

  async function writeStream(
    record: FakeRequest,
    res: http.ServerResponse,
    status: number,
    headers: Record<string, string>,
    chunks: (string | Buffer)[],
    options: StreamOptions,
  ): Promise<void> {
    const gone = watchGone(res);
    if (options.headersDelayMs !== undefined && !(await pause(options.headersDelayMs, gone))) return;
    res.writeHead(status, { 'cache-control': 'no-cache', ...headers });
    res.flushHeaders();
    for (let i = 0; i < chunks.length; i++) {
      if (options.stallAfter !== undefined && i >= options.stallAfter) return void (await wait(Infinity, record, res, options, gone));
      const delayMs = i === 0 ? options.firstDelayMs : options.delayMs;
      if (delayMs > 0 && !(await wait(delayMs, record, res, options, gone))) return;
      if (res.destroyed || gone.aborted) return;
      if (options.cutAfter !== undefined && i >= options.cutAfter) return cut(record, res);
      const chunk = chunks[i] as string | Buffer;
      // Before a cut, what was written must reach the client: destroy() drops unflushed writes.
      if (options.cutAfter !== undefined) await new Promise<void>((resolve) => res.write(chunk, () => resolve()));
      else res.write(chunk);
      record.firstChunkAt ??= performance.now();
      record.chunkTimes.push(performance.now());
      record.chunksWritten++;
    }
    if (options.stallAfter !== undefined) return void (await wait(Infinity, record, res, options, gone));
    if (options.cutAfter !== undefined && chunks.length >= options.cutAfter) return cut(record, res);
    res.end();
    record.finishedAt = performance.now();
  }

  // Waits `ms` (Infinity: until the client goes), writing the keep-alives the options ask for; false once the client or the fake went.
  async function wait(ms: number, record: FakeRequest, res: http.ServerResponse, options: StreamOptions, gone: AbortSignal): Promise<boolean> {
    const keepAlive = options.keepAlive;
    if (keepAlive === undefined) return ms === Infinity ? untilGone(gone) : pause(ms, gone);
    const until = performance.now() + ms;
    for (;;) {
      const left = until - performance.now();
      if (left <= 0) return true;
      if (!(await pause(Math.min(keepAlive.everyMs, left), gone))) return false;
      if (left > keepAlive.everyMs && !res.destroyed) {
        res.write(keepAlive.text);
        record.keepAlivesWritten++;
      }
    }
  }

  function cut(record: FakeRequest, res: http.ServerResponse): void {
    record.connection.closedEarly = true;
    record.connection.closedBy = 'server';
    res.socket?.destroy();
  }

  function writeWhole(record: FakeRequest, res: http.ServerResponse, status: number, headers: Record<string, string>, body: unknown): void {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(text);
    record.chunksWritten = 1;
    record.finishedAt = performance.now();
  }

  // Resolves false when `signal` (the client gone, or the fake closing) aborts first.
  async function pause(ms: number, signal: AbortSignal = stop.signal): Promise<boolean> {
    try {
      await delay(ms, undefined, { signal });
      return true;
    } catch {
      return false;
    }
  }

  // Aborts when the response's connection closes or the fake closes.
  function watchGone(res: http.ServerResponse): AbortSignal {
    const gone = new AbortController();
    const onStop = (): void => gone.abort();
    stop.signal.addEventListener('abort', onStop, { once: true });
    res.once('close', () => {
      stop.signal.removeEventListener('abort', onStop);
      gone.abort();
    });
    if (res.destroyed || stop.signal.aborted) gone.abort();
    return gone.signal;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    port,
    baseUrl: (wire) => (wire === 'openai' ? `${url}/v1` : url),
    enqueue: (...responses) => void queue.push(...responses),
    setDefault: (response) => void (fallback = response),
    get pending() {
      return queue.length;
    },
    get active() {
      return active;
    },
    get maxActive() {
      return maxActive;
    },
    requests,
    connections,
    waitForRequests: (count, timeoutMs = 5000) =>
      requests.length >= count
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`fake-llm: ${requests.length} of ${count} requests arrived within ${timeoutMs} ms`)), timeoutMs);
            waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
          }),
    whenIdle: (timeoutMs = 5000) =>
      active === 0
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            const done = (): void => (clearTimeout(timer), resolve());
            const timer = setTimeout(() => {
              idleWaiters = idleWaiters.filter((w) => w !== done);
              reject(new Error(`fake-llm: still answering ${active} request(s) after ${timeoutMs} ms`));
            }, timeoutMs);
            idleWaiters.push(done);
          }),
    close: async () => {
      stop.abort();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface StreamOptions {
  firstDelayMs: number;
  delayMs: number;
  cutAfter?: number;
  stallAfter?: number;
  headersDelayMs?: number;
  keepAlive?: { text: string; everyMs: number };
}

/** Resolves (false) when `signal` aborts. */
function untilGone(signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    signal.addEventListener('abort', () => resolve(false), { once: true });
  });
}

/** The text of the last user message of a request, whatever its wire (a string, or Anthropic's text blocks); undefined without one. */
export function lastUserText(request: FakeRequest): string | undefined {
  const messages = (request.body as { messages?: unknown } | undefined)?.messages;
  if (!Array.isArray(messages)) return undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as { role?: unknown; content?: unknown };
    if (message.role !== 'user') continue;
    if (typeof message.content === 'string') return message.content;
    if (Array.isArray(message.content)) {
      return message.content
        .map((block: { type?: unknown; text?: unknown }) => (block.type === 'text' && typeof block.text === 'string' ? block.text : ''))
        .join('');
    }
  }
  return undefined;
}

/** How many tool results a request carries since its last user message: how far the model's tool loop has got. */
export function toolResultsSinceUser(request: FakeRequest): number {
  const messages = (request.body as { messages?: { role?: unknown }[] } | undefined)?.messages ?? [];
  return messages.slice(messages.map((m) => m.role).lastIndexOf('user')).filter((m) => m.role === 'tool').length;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** SSE records, each with the blank line that ends it (a last unterminated record stays as it is). */
function splitRecords(text: string): string[] {
  return text.split(/(?<=\r?\n\r?\n)/).filter((part) => part !== '');
}

function splitLines(text: string): string[] {
  return text.split(/(?<=\n)/).filter((part) => part !== '');
}

// Cut on bytes, so a multi-byte character can straddle two chunks.
function splitEvery(text: string, size: number): Buffer[] {
  const bytes = Buffer.from(text, 'utf8');
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += Math.max(1, size)) out.push(bytes.subarray(i, i + Math.max(1, size)));
  return out;
}
