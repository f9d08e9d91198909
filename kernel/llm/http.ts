import * as http from 'node:http';
import * as https from 'node:https';
import type { WireRequest } from './adapter';

/** Where a request is, once the provider's headers are in. */
export interface HttpReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as it streams. */
  body: http.IncomingMessage;
}

/** How a request is ended early and who hears how far it got. */
export interface SendOptions {
  /** Destroys the request, and with it the TCP socket, the moment it aborts (also while the body streams). */
  signal: AbortSignal;
  /** Called once the TCP connection is open (at once for a kept-alive socket). */
  onConnect?: () => void;
}

const ERROR_BODY_LIMIT = 64 * 1024;
const WHOLE_BODY_LIMIT = 16 * 1024 * 1024;

/** Sends a request with node:http(s) and resolves at the response headers; how long it may take is the caller's to watch. */
export function sendRequest(wire: WireRequest, options: SendOptions): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const url = new URL(wire.url);
    const body = Buffer.from(wire.body, 'utf8');
    const transport = url.protocol === 'https:' ? https : http;
    const requestOptions: http.RequestOptions = {
      method: wire.method,
      headers: { ...wire.headers, 'content-length': String(body.length) },
      signal: options.signal,
    };
    const req = transport.request(url, requestOptions);
    const onConnect = options.onConnect;
    if (onConnect !== undefined) {
      req.once('socket', (socket) => {
        if (socket.connecting) socket.once('connect', onConnect);
        else onConnect();
      });
    }
    req.once('error', reject);
    req.once('response', (res) => {
      req.off('error', reject);
      // Errors after the headers surface on the body stream; keep the request from throwing unhandled.
      req.on('error', () => undefined);
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res });
    });
    req.end(body);
  });
}

/** Reads an error body (at most 64 KiB) as text; a body cut short still says something. `onChunk` hears each chunk's size. */
export async function readErrorBody(body: http.IncomingMessage, onChunk?: (bytes: number) => void): Promise<string> {
  try {
    return await readBody(body, ERROR_BODY_LIMIT, onChunk);
  } catch {
    return '';
  }
}

/** Reads a whole (non-streamed) answer, at most 16 MiB; throws if the connection breaks. `onChunk` hears each chunk's size. */
export function readWholeBody(body: http.IncomingMessage, onChunk?: (bytes: number) => void): Promise<string> {
  return readBody(body, WHOLE_BODY_LIMIT, onChunk);
}

async function readBody(body: http.IncomingMessage, limit: number, onChunk: ((bytes: number) => void) | undefined): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      onChunk?.(chunk.length);
      if (size >= limit) break;
    }
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}
