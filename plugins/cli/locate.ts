// How clients find homed's socket and data dir: flags first, then the environment, then the installed service, then homed's default.
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { defaultDataDir, type DefaultDataDir } from './installed';
import { ADMIN_FOLDER, ADMIN_SOCKET_FILE, SOCKET_FILE } from './settings';
import { takeValueFlags } from './take-flags';

/** Where the socket and the data dir are, how that was decided, and the arguments left once the location flags are taken out. */
export interface SocketLocation {
  path: string;
  /** The data dir: the one named, or for a socket named alone the folder above the socket's own (`DIR/run/homed.sock`). */
  dataDir: string;
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
  if (socket !== undefined) return atSocket(resolve(cwd, socket), '--socket', rest);
  if (data !== undefined) return atDataDir(resolve(cwd, data), '-data', rest);
  if (env['HOMEAGENT_SOCKET']) return atSocket(resolve(cwd, env['HOMEAGENT_SOCKET']), 'HOMEAGENT_SOCKET', rest);
  if (env['HOMEAGENT_DATA']) return atDataDir(resolve(cwd, env['HOMEAGENT_DATA']), 'HOMEAGENT_DATA', rest);
  const { dir, source } = fallback();
  return atDataDir(dir, source, rest);
}

function atSocket(socket: string, source: string, rest: string[]): SocketLocation {
  return { path: socket, dataDir: dirname(dirname(socket)), source, rest };
}

function atDataDir(dataDir: string, source: string, rest: string[]): SocketLocation {
  return { path: socketInDataDir(dataDir), dataDir, source, rest };
}

/** The socket homed serves by default for a data dir. */
export function socketInDataDir(dataDir: string): string {
  return join(dataDir, 'run', SOCKET_FILE);
}

/**
 * The socket homectl talks through: the owner-only admin socket of the data dir when this user may connect to it
 * (homed's own user, or root), so that no crowd on the shared socket keeps the owner out; else the shared socket.
 */
export function preferAdminSocket(location: Pick<SocketLocation, 'path' | 'dataDir'>): string {
  const admin = adminSocketInDataDir(location.dataDir);
  try {
    if (!statSync(admin).isSocket()) return location.path;
    accessSync(admin, constants.W_OK);
    return admin;
  } catch {
    return location.path;
  }
}

/** The owner-only admin socket homed serves for a data dir, in a folder of its own in the run folder. */
export function adminSocketInDataDir(dataDir: string): string {
  return join(dataDir, 'run', ADMIN_FOLDER, ADMIN_SOCKET_FILE);
}
