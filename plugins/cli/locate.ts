// How clients find homed's socket: flags first, then the environment, then the installed service, then homed's default.
import { join, resolve } from 'node:path';
import { defaultDataDir, type DefaultDataDir } from './installed';
import { SOCKET_FILE } from './settings';
import { takeValueFlags } from './take-flags';

/** Where the socket is, how that was decided, and the arguments left once the location flags are taken out. */
export interface SocketLocation {
  path: string;
  /** `--socket`, `-data`, `HOMEAGENT_SOCKET`, `HOMEAGENT_DATA`, `service` (the installed unit) or `default` (beside the package). */
  source: string;
  rest: string[];
}

/** A location flag without its value. */
export class LocateUsageError extends Error {
  override name = 'LocateUsageError';
}

const SOCKET_FLAGS = ['--socket', '-socket'];
const DATA_FLAGS = ['-data', '--data'];

/**
 * Resolves the socket: `--socket PATH`, `-data DIR`/`--data DIR`, $HOMEAGENT_SOCKET, $HOMEAGENT_DATA, then the data dir
 * of the installed service, else homed's own default (data/ beside the package); never the current folder.
 */
export function locateSocket(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
  fallback: () => DefaultDataDir = defaultDataDir,
): SocketLocation {
  const { taken, rest } = takeValueFlags(argv, [...SOCKET_FLAGS, ...DATA_FLAGS]);
  let socket: string | undefined;
  let data: string | undefined;
  for (const { flag, value } of taken) {
    if (value === undefined || value === '') throw new LocateUsageError(`${flag} needs a value`);
    if (SOCKET_FLAGS.includes(flag)) socket = value;
    else data = value;
  }
  if (socket !== undefined) return { path: resolve(cwd, socket), source: '--socket', rest };
  if (data !== undefined) return { path: socketInDataDir(resolve(cwd, data)), source: '-data', rest };
  if (env['HOMEAGENT_SOCKET']) return { path: resolve(cwd, env['HOMEAGENT_SOCKET']), source: 'HOMEAGENT_SOCKET', rest };
  if (env['HOMEAGENT_DATA']) return { path: socketInDataDir(resolve(cwd, env['HOMEAGENT_DATA'])), source: 'HOMEAGENT_DATA', rest };
  const { dir, source } = fallback();
  return { path: socketInDataDir(dir), source, rest };
}

/** The socket homed serves by default for a data dir. */
export function socketInDataDir(dataDir: string): string {
  return join(dataDir, 'run', SOCKET_FILE);
}
