// Where a download of a skill's install spec goes: its tools folder, or a folder inside it named by the spec's
// `targetDir` (relative, never leaving it: OpenClaw's own targetDir is relative to its tools folder too).
import * as path from 'node:path';

export type DownloadTarget = { dir: string } | { problem: string };

export function downloadTarget(toolsDir: string, targetDir: string | undefined): DownloadTarget {
  if (targetDir === undefined || targetDir.trim() === '') return { dir: toolsDir };
  const relative = targetDir.trim();
  if (path.isAbsolute(relative) || relative.startsWith('~'))
    return { problem: `targetDir ${JSON.stringify(targetDir)} is not a folder inside the skill's tools folder` };
  const dir = path.resolve(toolsDir, relative);
  if (dir !== toolsDir && !dir.startsWith(toolsDir + path.sep)) return { problem: `targetDir ${JSON.stringify(targetDir)} leaves the skill's tools folder` };
  return { dir };
}
