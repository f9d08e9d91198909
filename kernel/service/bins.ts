// The package's commands on PATH for every user: small sh wrappers in /usr/local/bin that exec node on the
// compiled entry directly (no npx, no PATH lookup of node), so `homectl status` starts in node's own time.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SERVICE_FILE_MARK } from '../../protocol';

/** Where the wrappers go. */
export const BIN_DIR = '/usr/local/bin';

/** The package's commands and their compiled entries, relative to the package root. */
export const COMMANDS: Readonly<Record<string, string>> = {
  homed: 'dist/kernel/main.js',
  homectl: 'dist/plugins/cli/homectl.js',
  waiter: 'dist/plugins/cli/waiter.js',
};

/** The text of one wrapper. */
export function wrapperText(node: string, entry: string, command: string): string {
  return `#!/bin/sh\n${SERVICE_FILE_MARK}: HomeAgent's ${command}\nexec ${node} ${entry} "$@"\n`;
}

/** Whether a file in the bin folder is a wrapper install-service wrote. */
export function isOurWrapper(file: string): boolean {
  try {
    return fs.readFileSync(file, 'utf8').split('\n')[1]?.startsWith(SERVICE_FILE_MARK) === true;
  } catch {
    return false;
  }
}

/** Writes a wrapper for each command; leaves a file that is not ours alone (an npm global link, say) and says so. */
export function installWrappers(node: string, packageRoot: string, binDir = BIN_DIR): { written: string[]; left: string[] } {
  const written: string[] = [];
  const left: string[] = [];
  fs.mkdirSync(binDir, { recursive: true, mode: 0o755 });
  for (const [command, entry] of Object.entries(COMMANDS)) {
    const target = path.join(binDir, command);
    if (fs.existsSync(target) && !isOurWrapper(target)) {
      left.push(target);
      continue;
    }
    const temp = `${target}.${process.pid}.tmp`;
    fs.writeFileSync(temp, wrapperText(node, path.join(packageRoot, entry), command), { mode: 0o755 });
    fs.chmodSync(temp, 0o755);
    fs.renameSync(temp, target);
    written.push(target);
  }
  return { written, left };
}

/** Removes the wrappers install-service wrote; others stay. */
export function removeWrappers(binDir = BIN_DIR): string[] {
  const removed: string[] = [];
  for (const command of Object.keys(COMMANDS)) {
    const target = path.join(binDir, command);
    if (isOurWrapper(target)) {
      fs.rmSync(target);
      removed.push(target);
    }
  }
  return removed;
}
