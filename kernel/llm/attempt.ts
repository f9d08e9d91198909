import { STATUS_CODES } from 'node:http';
import { ResultBuilder } from './accumulate';
import type { AdapterStream, LuaAdapter, WireEvent, WireRequest } from './adapter';
import { AttemptWatch, type WatchLimits } from './attempt-watch';
import { LlmAbortError, LlmError } from './errors';
import { expiryError } from './expiry';
import { createFrameParser, type FramedEvent } from './framing';
import { readErrorBody, readWholeBody, sendRequest, type HttpReply } from './http';
import { LuaScriptError } from './lua/vm';
import { firstTokenNotice, tellPerson } from './notices';
import { isRetryableStatus, parseRetryAfter } from './retry';
import type { LlmResult, StreamHooks } from './types';

/** One try of one request against one provider. */
export interface Attempt {
  provider: string;
  model: string;
  adapter: LuaAdapter;
  wire: WireRequest;
  /** The no-progress timeout, the whole-attempt deadline and when a slow start is told. */
  limits: WatchLimits;
  /** This attempt's number (1 for the first), for the notices. */
  number: number;
  /** How many attempts the retry policy allows this provider. */
  of: number;
  hooks: StreamHooks;
}

/**
 * Sends the request and streams the answer through the adapter, one event at a time, into an LlmResult.
 * Throws LlmError (retryable or not, `streamed` once text reached onText) or LlmAbortError.
 */
export async function runAttempt(attempt: Attempt): Promise<LlmResult> {
  const builder = new ResultBuilder(attempt.hooks.onText);
  const { idleMs, deadlineMs } = attempt.limits;
  const watch = new AttemptWatch(attempt.limits, attempt.hooks.signal, ({ waitedMs, headers, endsBy }) =>
    tellPerson(
      attempt.hooks,
      firstTokenNotice({ provider: attempt.provider, waitedMs, headers, attempt: attempt.number, attempts: attempt.of, endsBy, timeoutMs: idleMs, deadlineMs }),
    ),
  );
  try {
    return await exchange(attempt, builder, watch);
  } finally {
    watch.stop();
  }
}

async function exchange(attempt: Attempt, builder: ResultBuilder, watch: AttemptWatch): Promise<LlmResult> {
  let reply: HttpReply;
  try {
    reply = await sendRequest(attempt.wire, { signal: watch.signal, onConnect: () => watch.connected() });
  } catch (error) {
    throw transportError(error, attempt, builder, undefined, watch);
  }
  watch.headers();
  if (reply.status < 200 || reply.status > 299) throw await httpError(reply, attempt, watch);
  if (isWholeJson(reply)) await readWholeAnswer(reply, attempt, builder, watch);
  else await streamBody(reply, attempt, builder, watch);
  if (!builder.finished) {
    throw new LlmError(`LLM provider "${attempt.provider}" ended its stream before saying it had finished`, {
      kind: 'stream',
      provider: attempt.provider,
      retryable: true,
      streamed: builder.streamed,
      partial: builder.build(attempt.provider, attempt.model),
    });
  }
  return builder.build(attempt.provider, attempt.model);
}

async function streamBody(reply: HttpReply, attempt: Attempt, builder: ResultBuilder, watch: AttemptWatch): Promise<void> {
  const parser = createFrameParser(attempt.wire.framing);
  const decoder = new TextDecoder();
  const stream = attempt.adapter.openStream();
  let done = false;
  // Errors from handling events (the adapter, the caller's onText) pass as they are; only the body's own are transport errors.
  let handlerError: unknown;
  const handle = (events: FramedEvent[]): boolean => {
    try {
      return handleEvents(events, attempt, builder, stream.handle, watch);
    } catch (error) {
      handlerError = error;
      throw error;
    }
  };
  try {
    for await (const chunk of reply.body as AsyncIterable<Buffer>) {
      watch.bytes(chunk.length);
      // After OpenAI's `[DONE]` the rest is drained unread, so the connection can be reused.
      if (!done) done = handle(parser.push(decoder.decode(chunk, { stream: true })));
    }
    if (!done) handle([...parser.push(decoder.decode()), ...parser.end()]);
  } catch (error) {
    reply.body.destroy();
    if (error === handlerError || error instanceof LlmError) throw error;
    // The answer was whole (the provider had said why it stopped): a connection lost after that costs only the usage.
    if (builder.finished && !attempt.hooks.signal?.aborted) return;
    throw transportError(error, attempt, builder, reply, watch);
  } finally {
    stream.close();
  }
}

// A server that ignored `stream: true` answers with one JSON document: it goes to the adapter as one event
// (the shipped adapters read OpenAI's `choices[].message` and Ollama's non-streamed line).
function isWholeJson(reply: HttpReply): boolean {
  const type = String(reply.headers['content-type'] ?? '').toLowerCase();
  return type.startsWith('application/json');
}

async function readWholeAnswer(reply: HttpReply, attempt: Attempt, builder: ResultBuilder, watch: AttemptWatch): Promise<void> {
  let text: string;
  try {
    // A whole answer has no keep-alives: every byte of it is the answer coming.
    text = await readWholeBody(reply.body, () => watch.progress(true));
  } catch (error) {
    throw transportError(error, attempt, builder, reply, watch);
  }
  const stream = attempt.adapter.openStream();
  try {
    handleEvents([{ event: undefined, data: text.trim() }], attempt, builder, stream.handle, watch);
  } finally {
    stream.close();
  }
}

// Returns true at OpenAI's `data: [DONE]`, after which nothing more is read. Each delta of real content is progress.
function handleEvents(events: FramedEvent[], attempt: Attempt, builder: ResultBuilder, handle: AdapterStream['handle'], watch: AttemptWatch): boolean {
  for (const framed of events) {
    if (framed.data === '[DONE]') {
      builder.finishIfUnfinished('stop');
      return true;
    }
    let deltas;
    try {
      deltas = handle(toWireEvent(framed));
    } catch (error) {
      if (!(error instanceof LuaScriptError)) throw error;
      throw new LlmError(`LLM provider "${attempt.provider}": ${error.message}`, {
        kind: 'adapter',
        provider: attempt.provider,
        streamed: builder.streamed,
        partial: builder.build(attempt.provider, attempt.model),
        cause: error,
      });
    }
    for (const delta of deltas) {
      const failure = builder.apply(delta);
      if (failure === undefined) {
        if (delta.type !== 'text' || delta.text !== '') watch.progress(delta.type !== 'usage');
        continue;
      }
      const code = failure.kind === undefined ? '' : ` (${failure.kind})`;
      const facts = {
        kind: 'provider' as const,
        provider: attempt.provider,
        retryable: failure.retryable ?? false,
        streamed: builder.streamed,
        partial: builder.build(attempt.provider, attempt.model),
      };
      throw new LlmError(
        `LLM provider "${attempt.provider}" reported an error in its stream${code}: ${failure.message}`,
        failure.kind === undefined ? facts : { ...facts, code: failure.kind },
      );
    }
  }
  return false;
}

function toWireEvent(framed: FramedEvent): WireEvent {
  const first = framed.data.charCodeAt(0);
  // Only objects and arrays are worth parsing; anything else goes to the adapter as text.
  if (first === 0x7b || first === 0x5b) {
    try {
      const data: unknown = JSON.parse(framed.data);
      return framed.event === undefined ? { data } : { event: framed.event, data };
    } catch {
      // falls through: handed over as text
    }
  }
  return framed.event === undefined ? { text: framed.data } : { event: framed.event, text: framed.data };
}

async function httpError(reply: HttpReply, attempt: Attempt, watch: AttemptWatch): Promise<LlmError> {
  const text = await readErrorBody(reply.body, () => watch.progress(false));
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = undefined;
  }
  let info;
  try {
    info = attempt.adapter.describeHttpError(reply.status, data, text);
  } catch {
    info = undefined; // an adapter failing to read an error body must not hide the error itself
  }
  const code = info?.kind ?? genericCode(data);
  const message = info?.message ?? genericMessage(data, text, reply.status);
  const retryAfterMs = parseRetryAfter(reply.headers);
  const facts = {
    kind: 'http' as const,
    provider: attempt.provider,
    status: reply.status,
    retryable: info?.retryable ?? isRetryableStatus(reply.status),
    ...(code === undefined ? {} : { code }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
  return new LlmError(`LLM provider "${attempt.provider}" answered HTTP ${reply.status}${code === undefined ? '' : ` (${code})`}: ${message}`, facts);
}

function transportError(error: unknown, attempt: Attempt, builder: ResultBuilder, reply: HttpReply | undefined, watch: AttemptWatch): Error {
  const partial = builder.build(attempt.provider, attempt.model);
  if (attempt.hooks.signal?.aborted) return new LlmAbortError(attempt.provider, partial, attempt.hooks.signal.reason);
  if (watch.expiry !== undefined) {
    const { idleMs, deadlineMs } = attempt.limits;
    return expiryError(watch.expiry, { provider: attempt.provider, url: attempt.wire.url, idleMs, deadlineMs, streamed: builder.streamed, partial });
  }
  const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  const message =
    reply === undefined
      ? `LLM provider "${attempt.provider}" could not be reached at ${attempt.wire.url}: ${reason}`
      : `the connection to LLM provider "${attempt.provider}" broke while it was answering: ${reason}`;
  return new LlmError(message, { kind: 'network', provider: attempt.provider, retryable: true, streamed: builder.streamed, partial, cause: error });
}

function genericCode(data: unknown): string | undefined {
  const error = field(data, 'error');
  const code = field(error, 'code') ?? field(error, 'type') ?? field(data, 'code') ?? field(data, 'type');
  return typeof code === 'string' ? code : undefined;
}

function genericMessage(data: unknown, text: string, status: number): string {
  const error = field(data, 'error');
  const message = field(error, 'message') ?? (typeof error === 'string' ? error : undefined) ?? field(data, 'message');
  if (typeof message === 'string' && message !== '') return message;
  const trimmed = text.trim();
  if (trimmed !== '') return trimmed.length > 300 ? `${trimmed.slice(0, 297)}...` : trimmed;
  return STATUS_CODES[status] ?? 'no details';
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}
