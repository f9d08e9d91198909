// Fetches a package from an http(s) URL, a file URL or an absolute path into a file: capped, aborted by
// the caller's deadline, following redirects only to http(s) (never down from https to http).
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PluginmgrHttpErrors } from '../../protocol/pluginmgr';
import { copyCapped, type CopiedFile } from './capped-copy';
import { PluginmgrError, tooLargeError } from './errors';

/** Redirects followed before giving up (browsers allow 20, curl 50; a package host needs one or two). */
export const MAX_REDIRECTS = 5;

/** Where a package comes from, parsed. */
export type PackageSource = { kind: 'http'; url: URL } | { kind: 'file'; path: string };

/** A fetched package. */
export interface FetchedPackage extends CopiedFile {
  /** The URL it finally came from (after redirects), or the file's path. */
  source: string;
}

/** Parses what a person or the agent gave: http://, https://, file:// or an absolute path. */
export function parseSource(given: string): PackageSource {
  const text = given.trim();
  if (path.isAbsolute(text)) return { kind: 'file', path: path.normalize(text) };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badSource(`"${given}" is neither a URL nor an absolute path`);
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') return { kind: 'http', url };
  if (url.protocol !== 'file:') throw badSource(`${url.protocol}// URLs are not taken (${given})`);
  try {
    return { kind: 'file', path: fileURLToPath(url) };
  } catch (error) {
    throw badSource(`${given} is not a file URL of this machine: ${(error as Error).message}`);
  }
}

/** Fetches `source` into `file` (a new file) with at most `maxBytes`; `signal` carries the deadline. */
export async function fetchPackage(source: PackageSource, file: string, maxBytes: number, signal: AbortSignal): Promise<FetchedPackage> {
  return source.kind === 'http' ? fetchHttp(source.url, file, maxBytes, signal) : copyFile(source.path, file, maxBytes, signal);
}

async function copyFile(from: string, file: string, maxBytes: number, signal: AbortSignal): Promise<FetchedPackage> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(from, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (error) {
    throw badSource(`cannot read ${from}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw badSource(`${from} is not a regular file`);
    if (stat.size > maxBytes) throw tooLargeError(`${from} (${stat.size} bytes)`, maxBytes);
    const copied = await copyCapped(handle.createReadStream({ autoClose: false }), file, maxBytes, () => tooLargeError(from, maxBytes), signal);
    return { ...copied, source: from };
  } finally {
    await handle.close();
  }
}

async function fetchHttp(start: URL, file: string, maxBytes: number, signal: AbortSignal): Promise<FetchedPackage> {
  let url = start;
  for (let hop = 0; ; hop++) {
    const response = await get(url, signal);
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location !== undefined) {
      response.resume();
      if (hop >= MAX_REDIRECTS) throw downloadFailed(`${start.href} redirected more than ${MAX_REDIRECTS} times`);
      url = nextHop(url, response.headers.location);
      continue;
    }
    if (status !== 200) {
      response.resume();
      throw downloadFailed(`${url.href} answered ${status} ${response.statusMessage ?? ''}`.trimEnd() + '; check the URL');
    }
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      response.destroy();
      throw tooLargeError(`${url.href} (${declared} bytes by its Content-Length)`, maxBytes);
    }
    const copied = await copyCapped(response, file, maxBytes, () => tooLargeError(url.href, maxBytes), signal);
    return { ...copied, source: url.href };
  }
}

/** Where a redirect may lead: http(s) only, and from https only to https. */
export function nextHop(from: URL, location: string): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw downloadFailed(`${from.href} redirected to "${location}", which is not a URL`);
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    throw downloadFailed(`${from.href} redirected to ${next.protocol}// (${next.href}); only http:// and https:// redirects are followed`);
  }
  if (from.protocol === 'https:' && next.protocol === 'http:') {
    throw downloadFailed(`${from.href} redirected from https:// down to ${next.href}; a package is not fetched over plain http once https was asked for`);
  }
  return next;
}

function get(url: URL, signal: AbortSignal): Promise<http.IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(
      url,
      { signal, headers: { accept: 'application/zip, application/octet-stream, */*', 'user-agent': 'HomeAgent-pluginmgr' } },
      resolve,
    );
    request.on('error', (error: NodeJS.ErrnoException) => reject(downloadFailed(`cannot fetch ${url.href}: ${error.code ?? error.message}`)));
  });
}

function badSource(why: string): PluginmgrError {
  return new PluginmgrError(PluginmgrHttpErrors.BadRequest, `${why}; give an http://, https:// or file:// URL, or an absolute path, of a .hmap package`, 400);
}

function downloadFailed(why: string): PluginmgrError {
  return new PluginmgrError(PluginmgrHttpErrors.DownloadFailed, `download failed: ${why}`, 502);
}
