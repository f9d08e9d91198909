// Makes a socket path ours: refuses when a live server answers there, removes a stale file otherwise.
import { lstatSync, mkdirSync, unlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname } from 'node:path';

/** Longest path a Unix socket address holds on Linux (sun_path is 108 bytes with its NUL). */
export const MAX_SOCKET_PATH_BYTES = 107;

/** Prepares `path` for listen(): checks its length, creates its folder, removes a dead socket left there. */
export async function claimSocketPath(path: string): Promise<void> {
  const bytes = Buffer.byteLength(path);
  if (bytes > MAX_SOCKET_PATH_BYTES) {
    throw new Error(
      `socket path ${path} is ${bytes} bytes, more than the ${MAX_SOCKET_PATH_BYTES} a Unix socket allows; set cli:socket_path to a shorter path`,
    );
  }
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const stat = lstatOrNull(path);
  if (!stat) return;
  if (!stat.isSocket()) {
    throw new Error(`${path} exists and is not a socket; move it away or set cli:socket_path to another path`);
  }
  if (await isServed(path)) {
    throw new Error(`another homed is already serving ${path}; stop it first (homectl status shows its pid) or use another data dir`);
  }
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Whether something accepts connections at `path` (ECONNREFUSED and ENOENT mean no). */
export function isServed(path: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', (error: NodeJS.ErrnoException) => {
      probe.destroy();
      if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') resolve(false);
      else reject(new Error(`cannot probe ${path}: ${error.message}`));
    });
  });
}

function lstatOrNull(path: string): ReturnType<typeof lstatSync> | null {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
