// The PATH skills are gated against, `skills setup` finds its installer in, and the commands of a turn that read a
// skill get: homed's own PATH (which plugin processes inherit), then the folders exec gives every command, then the
// folders programs of `skills setup` downloads land in. One value for all three, so "ready" means a command finds
// the program, as it would in the shell homed was started from.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMMAND_PATH } from '../../plugin-host/command-path';

/** The folder under the plugin's data folder where `skills setup` puts downloads, one subfolder per skill key. */
export const TOOLS_DIR = 'tools';

/** The PATH of skill commands: homed's folders, exec's, then the downloaded tools' (absolute folders, each once). */
export function commandPath(homedPath: string, toolsRoot: string): string {
  const dirs = [...homedPath.split(path.delimiter), ...COMMAND_PATH.split(':'), ...listToolDirs(toolsRoot)];
  return [...new Set(dirs.filter((dir) => path.isAbsolute(dir)))].join(path.delimiter);
}

/** The folders a download may have put programs in: `<key>`, `<key>/bin` and `<key>/<any>/bin`, those that exist. */
export function listToolDirs(toolsRoot: string): string[] {
  const dirs: string[] = [];
  for (const key of listDirs(toolsRoot)) {
    const keyDir = path.join(toolsRoot, key);
    dirs.push(keyDir);
    for (const sub of listDirs(keyDir)) {
      if (sub === 'bin') dirs.push(path.join(keyDir, 'bin'));
      else if (isDir(path.join(keyDir, sub, 'bin'))) dirs.push(path.join(keyDir, sub, 'bin'));
    }
  }
  return dirs;
}

function listDirs(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}

function isDir(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
