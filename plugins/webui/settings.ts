// The webui plugin's settings: where to listen and whether to speak HTTPS.
import { readFileSync } from 'node:fs';
import type { PluginContext } from '../../plugin-host';
import { LOGIN_POLICY } from './logins';

/** Port when none is configured (matches plugin.json). */
export const DEFAULT_PORT = 8420;

/** Who may reach the page: this machine only, or the home network too. */
export type BindMode = 'loopback' | 'lan';

/** A certificate and its key, read from the files the owner named. */
export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
}

/** Everything the server needs to start listening. */
export interface WebSettings {
  port: number;
  /** Whether the owner set webui:port (a clash is then an error, not a move to another port). */
  portIsSet: boolean;
  bind: BindMode;
  /** Names the page answers to under lan besides the machine's own (`webui:hosts`), lower case. */
  hosts: string[];
  /** How long a sign-in lives unused (`webui:session_timeout`), in ms. */
  sessionMs: number;
  /** Present when both tls_cert and tls_key are set: the page is served over HTTPS. */
  tls?: TlsFiles;
}

/** A setting that keeps the server from starting; the message names the key, the file and what to do. */
export class SettingError extends Error {
  override name = 'SettingError';
}

/** Reads `port`, `bind`, `hosts`, `session_timeout`, `tls_cert` and `tls_key`; throws SettingError for a half-set or unreadable TLS pair. */
export async function readWebSettings(ctx: Pick<PluginContext, 'config'>): Promise<WebSettings> {
  const [portEntry, [bind, cert, key, hosts, session]] = await Promise.all([
    ctx.config.entry('port'),
    Promise.all(['bind', 'tls_cert', 'tls_key', 'hosts', 'session_timeout'].map((k) => ctx.config.get(k))),
  ]);
  const port = portEntry.value;
  const portValid = typeof port === 'number' && Number.isInteger(port) && port >= 0 && port <= 65535;
  const settings: WebSettings = {
    port: portValid ? port : DEFAULT_PORT,
    portIsSet: portValid && portEntry.isSet,
    bind: bind === 'lan' ? 'lan' : 'loopback',
    hosts: readHostNames(hosts),
    sessionMs: typeof session === 'number' && Number.isSafeInteger(session) && session >= 1000 ? session : LOGIN_POLICY.sessionMs,
  };
  const tls = readTlsPair(nonEmpty(cert), nonEmpty(key));
  if (tls) settings.tls = tls;
  return settings;
}

/** A host name or an IPv4 address, as a Host header carries it without its port. */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** `webui:hosts` → lower-case names; anything else in the list is a SettingError naming the entry. */
export function readHostNames(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new SettingError(`webui:hosts must be a JSON list of host names, e.g. ["homeagent.lan"]; it is ${JSON.stringify(value)}`);
  return value.map((entry, at) => {
    const name = typeof entry === 'string' ? entry.trim().toLowerCase() : '';
    if (!HOST_NAME.test(name)) {
      throw new SettingError(`webui:hosts[${at}] is ${JSON.stringify(entry)}, not a host name; give names like "homeagent.lan" without a scheme or port`);
    }
    return name;
  });
}

/** Both paths → the files' contents; neither → undefined; one alone or an unreadable file → SettingError. */
export function readTlsPair(certPath: string | undefined, keyPath: string | undefined): TlsFiles | undefined {
  if (certPath === undefined && keyPath === undefined) return undefined;
  if (certPath === undefined || keyPath === undefined) {
    const [set, missing] = certPath === undefined ? ['tls_key', 'tls_cert'] : ['tls_cert', 'tls_key'];
    throw new SettingError(
      `webui:${set} is set but webui:${missing} is not; set both for HTTPS (homectl config set webui:${missing} PATH) or unset ${set} for HTTP`,
    );
  }
  return { cert: readPem('tls_cert', certPath), key: readPem('tls_key', keyPath) };
}

function readPem(key: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new SettingError(`cannot read webui:${key} file ${file} (${reason}); fix the path with homectl config set webui:${key} PATH, or unset it`);
  }
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
