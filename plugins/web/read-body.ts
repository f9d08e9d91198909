// Reads a response body up to a cap, undoing gzip, deflate or brotli on the way: the cap counts decoded bytes
// (so a small compressed bomb stops at it too), and reading stops there, the connection closed, the rest unread.
import type * as http from 'node:http';
import { pipeline, type Readable } from 'node:stream';
import * as zlib from 'node:zlib';

/** A body as read. */
export interface Body {
  data: Buffer;
  /** Decoded bytes kept (at most the cap). */
  bytes: number;
  /** More was there than the cap. */
  truncated: boolean;
}

/** Reads at most `maxBytes` of `response`'s decoded body; aborting `signal` stops it at once with the signal's reason. */
export async function readBody(response: http.IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<Body> {
  const source = decoded(response);
  const stop = (): void => {
    source.destroy(signal.reason as Error);
    response.destroy();
  };
  signal.addEventListener('abort', stop, { once: true });
  const chunks: Buffer[] = [];
  let bytes = 0;
  let truncated = false;
  try {
    signal.throwIfAborted();
    for await (const chunk of source as AsyncIterable<Buffer>) {
      const room = maxBytes - bytes;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        bytes = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(chunk);
      bytes += chunk.length;
    }
  } finally {
    signal.removeEventListener('abort', stop);
    response.destroy();
    source.destroy();
  }
  return { data: Buffer.concat(chunks, bytes), bytes, truncated };
}

function decoded(response: http.IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  const decoder = decoderFor(encoding);
  if (decoder === null) return response;
  if (decoder === undefined) throw new Error(`the server sent the body with content-encoding ${JSON.stringify(encoding)}, which web_fetch cannot decode`);
  return pipeline(response, decoder, () => undefined);
}

function decoderFor(encoding: string): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null | undefined {
  switch (encoding) {
    case '':
    case 'identity':
      return null;
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}
