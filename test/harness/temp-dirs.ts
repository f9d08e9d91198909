// Temp folders a test file makes through the harness: each is removed when the test process exits, should the test
// that made it fail before its own cleanup (a failed assertion skips the rest of a test, and with it an rmSync).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const made = new Set<string>();

process.on('exit', () => {
  for (const dir of made) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // A folder a still-running child holds open; npm test removes its run's temp folder whole afterwards.
    }
  }
});

/** Makes an empty temp folder under the OS temp dir (short, so a socket path inside it stays under the limit). */
export function makeTrackedTempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.add(dir);
  return dir;
}
