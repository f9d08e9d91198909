// homectl's way to the pluginmgr plugin's HTTP API (which downloads packages): find its port and token in
// the run folder of the homed it talks to, then call it on 127.0.0.1.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { SocketApi } from '../../../protocol';
import { PLUGINMGR_PLUGINS_PATH, PluginmgrFiles, PluginmgrQuery, type PluginmgrErrorBody, type PluginmgrInstallAnswer } from '../../../protocol/pluginmgr';
import type { CommandContext } from './types';

/** The built-in that serves the API. */
export const PLUGINMGR_NAME = 'pluginmgr';
/** Longest homectl waits for an answer: pluginmgr's own download deadline (at most 5 min) and the install. */
const ANSWER_DEADLINE_MS = 10 * 60_000;

/** pluginmgr refused, or failed: its message and code. */
export class PluginmgrAnswerError extends Error {
  override name = 'PluginmgrAnswerError';
  constructor(
    readonly status: number,
    readonly body: PluginmgrErrorBody,
  ) {
    super(`${body.error} (${body.code})`);
  }
}

/** What homectl asks of pluginmgr. */
export interface PluginmgrClient {
  /** Fetches the package at `url` and installs it (or only describes it with `inspect`; `sha256` pins what is installed). */
  install(url: string, options: { inspect?: boolean; sha256?: string }): Promise<PluginmgrInstallAnswer>;
}

/** Finds the running pluginmgr of the homed behind the socket; says what to do when it is not running. */
export async function connectPluginmgr(ctx: CommandContext): Promise<PluginmgrClient> {
  const { plugin } = await ctx.call(SocketApi.PluginsInfo, { name: PLUGINMGR_NAME });
  if (plugin.state !== 'ready') {
    throw new Error(
      `the ${PLUGINMGR_NAME} plugin, which downloads packages, is ${plugin.state}; start it with: homectl plugins start ${PLUGINMGR_NAME} ` +
        '(or download the .hmap yourself and run: homectl plugins install FILE)',
    );
  }
  const status = await ctx.call(SocketApi.KernelStatus, {});
  const run = path.join(status.dataDir, 'run');
  const port = Number(readRunFile(run, PluginmgrFiles.port));
  const token = readRunFile(run, PluginmgrFiles.token);
  if (!Number.isInteger(port) || port <= 0 || port > 65_535)
    throw new Error(`${path.join(run, PluginmgrFiles.port)} does not hold a port; restart it with: homectl plugins restart ${PLUGINMGR_NAME}`);
  return {
    install: (url, options) => {
      const query = new URLSearchParams();
      if (options.inspect) query.set(PluginmgrQuery.inspect, '1');
      if (options.sha256 !== undefined) query.set(PluginmgrQuery.sha256, options.sha256);
      const search = query.toString();
      const target = search === '' ? PLUGINMGR_PLUGINS_PATH : `${PLUGINMGR_PLUGINS_PATH}?${search}`;
      return postJson<PluginmgrInstallAnswer>(port, token, target, { url });
    },
  };
}

function readRunFile(run: string, name: string): string {
  const file = path.join(run, name);
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EACCES' ? 'is not readable by you (run homectl as the user homed runs as)' : `cannot be read (${code ?? String(error)})`;
    throw new Error(`${file} ${why}; ${PLUGINMGR_NAME} writes it while it serves`);
  }
}

function postJson<T>(port: number, token: string, target: string, body: unknown): Promise<T> {
  const text = JSON.stringify(body);
  return new Promise<T>((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path: target,
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
        signal: AbortSignal.timeout(ANSWER_DEADLINE_MS),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          let parsed: unknown;
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            return reject(new Error(`${PLUGINMGR_NAME} answered ${status} without JSON; see homectl plugins logs ${PLUGINMGR_NAME}`));
          }
          if (status >= 200 && status < 300) resolve(parsed as T);
          else reject(new PluginmgrAnswerError(status, parsed as PluginmgrErrorBody));
        });
        response.on('error', reject);
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(`cannot reach ${PLUGINMGR_NAME} on 127.0.0.1:${port} (${error.code ?? error.message}); see homectl plugins info ${PLUGINMGR_NAME}`)),
    );
    request.end(text);
  });
}
