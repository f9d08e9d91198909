// One GET request of web_fetch or web_search: its own connection each time (no pooled socket, so a connection
// made for one rule is never reused under another), the caller's lookup and signal, and no redirect following.
import * as http from 'node:http';
import * as https from 'node:https';
import type * as net from 'node:net';

/** What one request needs. */
export interface HopRequest {
  url: URL;
  /** Aborting it destroys the request (and, through readBody, the response) at once. */
  signal: AbortSignal;
  /** Resolves host names; absent: the system's, unchecked. */
  lookup?: net.LookupFunction;
  userAgent: string;
  /** The Accept header. */
  accept: string;
}

/** The encodings readBody can undo. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** Sends the GET and resolves with the response once its headers arrived; the body is left unread. */
export function openHop(request: HopRequest): Promise<http.IncomingMessage> {
  const client = request.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.get(request.url, {
      agent: false,
      signal: request.signal,
      ...(request.lookup ? { lookup: request.lookup } : {}),
      headers: { 'user-agent': request.userAgent, accept: request.accept, 'accept-encoding': ACCEPT_ENCODING },
    });
    req.once('response', resolve);
    // Kept for the request's whole life: an abort or a closed socket after the headers errs here too.
    req.on('error', reject);
  });
}
