// The webui plugin's settings: where to listen and whether to speak HTTPS.
import { readFileSync } from 'node:fs';
import type { PluginContext } from '../../plugin-host';

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
  bind: BindMode;
  /** Present when both tls_cert and tls_key are set: the page is served over HTTPS. */
  tls?: TlsFiles;
}

/** A setting that keeps the server from starting; the message names the key, the file and what to do. */
export class SettingError extends Error {
  override name = 'SettingError';
}

/** Reads `port`, `bind`, `tls_cert` and `tls_key`; throws SettingError for a half-set or unreadable TLS pair. */
export async function readWebSettings(ctx: Pick<PluginContext, 'config'>): Promise<WebSettings> {
  const [port, bind, cert, key] = await Promise.all(['port', 'bind', 'tls_cert', 'tls_key'].map((k) => ctx.config.get(k)));
  const settings: WebSettings = {
    port: typeof port === 'number' && Number.isInteger(port) && port >= 0 && port <= 65535 ? port : DEFAULT_PORT,
    bind: bind === 'lan' ? 'lan' : 'loopback',
  };
  const tls = readTlsPair(nonEmpty(cert), nonEmpty(key));
  if (tls) settings.tls = tls;
  return settings;
}

/** Both paths → the files' contents; neither → undefined; one alone or an unreadable file → SettingError. */
export function readTlsPair(certPath: string | undefined, keyPath: string | undefined): TlsFiles | undefined {
  if (certPath === undefined && keyPath === undefined) return undefined;
  if (certPath === undefined || keyPath === undefined) {
    const [set, missing] = certPath === undefined ? ['tls_key', 'tls_cert'] : ['tls_cert', 'tls_key'];
    throw new SettingError(`webui:${set} is set but webui:${missing} is not; set both for HTTPS (homectl config set webui:${missing} PATH) or unset ${set} for HTTP`);
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
