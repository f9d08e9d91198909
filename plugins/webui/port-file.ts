// <run>/webui.port: the port the server listens on, for scripts and tests when `port` is 0.
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file's name inside the run folder. */
export const PORT_FILE = 'webui.port';

/** Writes the port through a temporary file and a rename, so a reader sees the old file or the whole new one. */
export function writePortFile(runDir: string, port: number): string {
  const file = join(runDir, PORT_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${port}\n`, { mode: 0o644 });
  renameSync(temporary, file);
  return file;
}

/** Removes the file (nothing listens any more). */
export function removePortFile(runDir: string): void {
  rmSync(join(runDir, PORT_FILE), { force: true });
}
