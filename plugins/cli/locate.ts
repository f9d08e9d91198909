// How clients find homed's socket: flags first, then the environment, then ./data.
import { join, resolve } from 'node:path';
import { SOCKET_FILE } from './settings';
import { takeValueFlags } from './take-flags';

/** Where the socket is, how that was decided, and the arguments left once the location flags are taken out. */
export interface SocketLocation {
  path: string;
  /** `--socket`, `-data`, `HOMEAGENT_SOCKET`, `HOMEAGENT_DATA` or `default`. */
  source: string;
  rest: string[];
}

/** A location flag without its value. */
export class LocateUsageError extends Error {
  override name = 'LocateUsageError';
}

const SOCKET_FLAGS = ['--socket', '-socket'];
const DATA_FLAGS = ['-data', '--data'];

/** Resolves the socket: `--socket PATH`, `-data DIR`/`--data DIR`, $HOMEAGENT_SOCKET, $HOMEAGENT_DATA, `./data/run/homed.sock`. */
export function locateSocket(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): SocketLocation {
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
  return { path: socketInDataDir(resolve(cwd, 'data')), source: 'default', rest };
}

/** The socket homed serves by default for a data dir. */
export function socketInDataDir(dataDir: string): string {
  return join(dataDir, 'run', SOCKET_FILE);
}
