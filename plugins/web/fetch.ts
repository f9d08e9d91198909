// web_fetch: one page as readable text. Each hop's address is checked where the socket connects (guarded-lookup.ts),
// at most WEB_POLICY.maxRedirects redirects are followed, and the body is read up to `web:max_bytes` within
// `web:timeout` for the whole call.
import type * as http from 'node:http';
import { startDeadline } from '../../plugin-host';
import { RefusedAddressError } from './address-policy';
import { parseContentType, decodeText, looksBinary, refuseType } from './content';
import { checkLiteralHost, guardedLookup } from './guarded-lookup';
import { openHop } from './http-hop';
import { deadlineReasons, WEB_POLICY, type WebPolicy } from './policy';
import { readBody } from './read-body';
import type { WebSettings } from './settings';

/** The arguments of web_fetch. */
export interface FetchArgs {
  url: string;
  max_chars?: number;
}

/** What web_fetch answers. */
export interface FetchResult {
  /** The URL asked for. */
  url: string;
  /** The URL the text came from, after redirects. */
  final_url: string;
  status: number;
  content_type: string;
  /** The HTML page's title; '' for other types. */
  title: string;
  text: string;
  /** The body was longer than `web:max_bytes`, or the text than max_chars. */
  truncated: boolean;
  /** Body bytes read (decoded). */
  bytes: number;
  /** Time the whole call took. */
  ms: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const ACCEPT = 'text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,application/xml;q=0.8,*/*;q=0.5';

/** Fetches one page as text; throws an Error that says what was refused or failed, and what to do. */
export async function webFetch(args: FetchArgs, settings: WebSettings, cancel: AbortSignal, policy: WebPolicy = WEB_POLICY): Promise<FetchResult> {
  const started = performance.now();
  const start = parseHttpUrl(args.url, 'web_fetch needs');
  const deadline = startDeadline(settings.timeoutMs, cancel, deadlineReasons(`web_fetch of ${start.href}`, settings.timeoutMs));
  try {
    const { response, url } = await followRedirects(start, settings, deadline.signal, policy);
    const type = parseContentType(response.headers['content-type']);
    if (type.kind === 'binary') {
      response.destroy();
      throw refuseType(url.href, type.mime, response.headers['content-length']);
    }
    const body = await readBody(response, settings.maxBytes, deadline.signal);
    if (type.kind === 'unknown' && looksBinary(body.data)) throw refuseType(url.href, '', response.headers['content-length']);
    const raw = decodeText(body.data, type);
    const html = type.kind === 'html' ? loadHtmlText() : undefined;
    const full = html ? html.htmlToReadableText(raw, url.href) : raw;
    const limit = Math.min(args.max_chars ?? settings.maxChars, settings.maxCharsLimit);
    const text = cutText(full, limit);
    return {
      url: args.url,
      final_url: url.href,
      status: response.statusCode ?? 0,
      content_type: type.mime,
      title: html ? html.htmlTitle(raw) : '',
      text,
      truncated: body.truncated || text.length < full.length,
      bytes: body.bytes,
      ms: Math.round(performance.now() - started),
    };
  } catch (error) {
    throw deadline.explain(error);
  } finally {
    deadline.dispose();
  }
}

async function followRedirects(
  start: URL,
  settings: WebSettings,
  signal: AbortSignal,
  policy: WebPolicy,
): Promise<{ response: http.IncomingMessage; url: URL }> {
  let url = start;
  for (let hop = 0; ; hop++) {
    const response = await openChecked(url, settings, signal, hop === 0 ? '' : 'the redirect to ');
    const location = response.headers.location;
    if (!REDIRECTS.has(response.statusCode ?? 0) || location === undefined) return { response, url };
    response.destroy();
    const next = parseHttpUrl(new URL(location, url).href, `${url.href} redirects to a URL web_fetch cannot follow; it needs`);
    if (hop >= policy.maxRedirects) {
      throw new Error(
        `web_fetch stopped at ${url.href}: it redirects to ${next.href}, and web_fetch follows at most ${policy.maxRedirects} redirects (from ${start.href})`,
      );
    }
    url = next;
  }
}

async function openChecked(url: URL, settings: WebSettings, signal: AbortSignal, what: string): Promise<http.IncomingMessage> {
  const target = { host: url.hostname.replace(/^\[|\]$/g, '').toLowerCase(), port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80) };
  try {
    checkLiteralHost(target, settings.allowPrivate);
    return await openHop({ url, signal, lookup: guardedLookup(target, settings.allowPrivate), userAgent: WEB_POLICY.userAgent, accept: ACCEPT });
  } catch (error) {
    if (error instanceof RefusedAddressError) {
      throw new RefusedAddressError(`web_fetch refused ${what}${url.href}: ${error.message}`, error.address, error.range);
    }
    if (signal.aborted) throw error;
    throw new Error(`web_fetch could not fetch ${what}${url.href}: ${(error as Error).message}`);
  }
}

/** An absolute http(s) URL, or a clear error starting with `lead` (`web_fetch needs`). */
export function parseHttpUrl(text: string, lead: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${lead} an absolute http or https URL, like https://example.org/page; ${JSON.stringify(text)} is not one`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`${lead} an http or https URL; ${url.href} is ${url.protocol.slice(0, -1)}`);
  }
  return url;
}

// html-to-text and its parser are loaded with the first HTML page, not at start: an idle plugin stays smaller.
function loadHtmlText(): typeof import('./html-text') {
  return require('./html-text') as typeof import('./html-text');
}

// Cuts at `limit` characters without splitting a surrogate pair.
function cutText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const code = text.charCodeAt(limit - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit);
}
