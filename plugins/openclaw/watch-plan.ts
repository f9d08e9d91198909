// The folders a change in which can change the skill set, most important first: each source (or, while it does
// not exist, the nearest folder above it, for its name only), the plugin folder (packages come and go), the tools
// folder, every folder of the PATH skills are gated against, then the folders the walk read, shallowest first.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { WatchedFolder } from './folder-watch';
import type { SkillSetState } from './skill-set';

export function planWatch(state: SkillSetState, toolsRoot: string): WatchedFolder[] {
  const roots = [...state.sources.map((source) => source.dir), state.settings.pluginDir, toolsRoot];
  const pathDirs = state.pathValue
    .split(path.delimiter)
    .filter(isDir)
    .map((dir) => ({ dir }));
  const walked = [...state.walked].sort((a, b) => a.depth - b.depth).map(({ dir }) => ({ dir }));
  return [...roots.map(existingOrAwaited).filter((folder): folder is WatchedFolder => folder !== undefined), ...pathDirs, ...walked];
}

/** The folder itself when it exists, else the nearest existing folder above it, for the name leading down to it. */
function existingOrAwaited(dir: string): WatchedFolder | undefined {
  let child = path.resolve(dir);
  if (isDir(child)) return { dir: child };
  for (let parent = path.dirname(child); parent !== child; child = parent, parent = path.dirname(parent)) {
    if (isDir(parent)) return { dir: parent, only: path.basename(child) };
  }
  return undefined;
}

function isDir(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
