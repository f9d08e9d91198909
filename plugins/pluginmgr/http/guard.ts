// The checks every request passes before any route sees it: the Host header, then the bearer token.
import type { IncomingHttpHeaders } from 'node:http';
import { PluginmgrHttpErrors } from '../../../protocol/pluginmgr';
import { PluginmgrError } from '../errors';
import { tokenMatches } from './credentials';

/** The Host values this server answers to: the loopback address it listens on, by IP or name, with its port. */
export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

/**
 * Refuses a request whose Host is not the loopback address and port. A web page that re-points its own
 * name at 127.0.0.1 (DNS rebinding) still sends its own name as Host, so it stops here.
 */
export function checkHost(headers: IncomingHttpHeaders, allowed: ReadonlySet<string>): void {
  const host = headers.host?.toLowerCase();
  if (host !== undefined && allowed.has(host)) return;
  throw new PluginmgrError(
    PluginmgrHttpErrors.ForeignHost,
    `this API answers only to Host ${[...allowed].join(', ')}, not ${host === undefined ? 'a request without Host' : JSON.stringify(host)}`,
    421,
  );
}

/** Refuses a request without `Authorization: Bearer <token>` carrying the token. */
export function checkToken(headers: IncomingHttpHeaders, token: string, tokenFile: string): void {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(headers.authorization ?? '');
  if (match && tokenMatches(match[1] as string, token)) return;
  const why = headers.authorization === undefined ? 'no bearer token was given' : 'the bearer token is wrong';
  throw new PluginmgrError(
    PluginmgrHttpErrors.Unauthorized,
    `${why}; send Authorization: Bearer <the token in ${tokenFile}> (it changes each time pluginmgr starts)`,
    401,
    { 'www-authenticate': 'Bearer realm="homeagent-pluginmgr"' },
  );
}
