// Reading request bodies without trusting their size: small JSON whole (capped), packages as a stream.
import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import { PluginmgrHttpErrors } from '../../../protocol/pluginmgr';
import { PluginmgrError, tooLargeError } from '../errors';

/** Largest JSON body (`{url}` needs little). */
export const MAX_JSON_BYTES = 64 * 1024;

/** Reads and parses a JSON body of at most `maxBytes`. */
export async function readJson(req: IncomingMessage, maxBytes = MAX_JSON_BYTES): Promise<unknown> {
  refuseDeclaredSize(req, maxBytes, 'the JSON body');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of detachBody(req) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLargeError('the JSON body', maxBytes);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch (error) {
    throw new PluginmgrError(PluginmgrHttpErrors.BadRequest, `the body is not JSON (${(error as Error).message}); send {"url": "https://…/x.hmap"}`, 400);
  }
}

/** Refuses at once a body whose Content-Length is past the cap, before a byte of it is read. */
export function refuseDeclaredSize(req: IncomingMessage, maxBytes: number, what: string): void {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLargeError(`${what} (${declared} bytes by its Content-Length)`, maxBytes);
}

/**
 * The body as a stream whose failure does not destroy the request: the socket must live on to carry
 * the answer (a 413) after the copy stopped reading. A client that goes away fails the stream.
 */
export function detachBody(req: IncomingMessage): Readable {
  const body = new PassThrough();
  req.pipe(body);
  const gone = (): void => {
    if (!req.complete) body.destroy(new PluginmgrError(PluginmgrHttpErrors.BadRequest, 'the client closed the connection before the whole body arrived', 400));
  };
  req.once('close', gone);
  req.on('error', gone);
  body.once('close', () => req.unpipe(body));
  return body;
}
