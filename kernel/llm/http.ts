import * as http from 'node:http';
import * as https from 'node:https';
import type { WireRequest } from './adapter';

/** Where a request is, once the provider's headers are in. */
export interface HttpReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as it streams. */
  body: http.IncomingMessage;
  /** Whether the connection was closed because nothing arrived for the idle timeout. */
  timedOut(): boolean;
}

/** Thrown (before the headers) when nothing arrived within the idle timeout. */
export class IdleTimeoutError extends Error {
  override readonly name = 'IdleTimeoutError';
}

const ERROR_BODY_LIMIT = 64 * 1024;
const WHOLE_BODY_LIMIT = 16 * 1024 * 1024;

/**
 * Sends a request with node:http(s) and resolves at the response headers. The `signal` destroys the
 * request, and with it the TCP socket, the moment it aborts (also while the body streams); `idleTimeoutMs`
 * closes a connection on which nothing arrived for that long (connect, headers or between chunks).
 */
export function sendRequest(wire: WireRequest, options: { signal?: AbortSignal; idleTimeoutMs: number }): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const url = new URL(wire.url);
    const body = Buffer.from(wire.body, 'utf8');
    const transport = url.protocol === 'https:' ? https : http;
    let timedOut = false;
    const requestOptions: http.RequestOptions = {
      method: wire.method,
      headers: { ...wire.headers, 'content-length': String(body.length) },
    };
    if (options.signal) requestOptions.signal = options.signal;
    const req = transport.request(url, requestOptions);
    req.setTimeout(options.idleTimeoutMs, () => {
      timedOut = true;
      req.destroy(new IdleTimeoutError(`nothing arrived for ${options.idleTimeoutMs} ms`));
    });
    req.once('error', reject);
    req.once('response', (res) => {
      req.off('error', reject);
      // Errors after the headers surface on the body stream; keep the request from throwing unhandled.
      req.on('error', () => undefined);
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res, timedOut: () => timedOut });
    });
    req.end(body);
  });
}

/** Reads an error body (at most 64 KiB) as text; a body cut short still says something. */
export async function readErrorBody(body: http.IncomingMessage): Promise<string> {
  try {
    return await readBody(body, ERROR_BODY_LIMIT);
  } catch {
    return '';
  }
}

/** Reads a whole (non-streamed) answer, at most 16 MiB; throws if the connection breaks. */
export function readWholeBody(body: http.IncomingMessage): Promise<string> {
  return readBody(body, WHOLE_BODY_LIMIT);
}

async function readBody(body: http.IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) break;
    }
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}
