// Reading a knowledge source named by path (knowledge/add, homectl knowledge add, the page's upload): only from
// inside the folders it may come from, judged on the file actually opened — its real path is read back from the
// descriptor — so a symlink swapped in between a check and the read cannot lead anywhere else.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ErrorCodes, haError } from '../../protocol';

/** The setting that names the file tools' roots, and the folder under the data dir that stands for it when empty. */
export const ROOTS_SETTING = { scope: 'files', key: 'roots', label: 'files:roots', defaultFolder: 'workspace' } as const;

/** The roots a files:roots value names (a list of absolute paths; empty or unset: <data>/workspace), as the file tools read it. */
export function rootsOf(setting: unknown, dataDir: string): string[] {
  const listed = Array.isArray(setting) ? setting.filter((r): r is string => typeof r === 'string' && path.isAbsolute(r)) : [];
  return listed.length > 0 ? listed : [path.join(dataDir, ROOTS_SETTING.defaultFolder)];
}

/**
 * Opens `source` (following links, without blocking on a FIFO), refuses it unless its real path lies inside one of
 * `folders`, it is a regular file and it has no other hard link (whose names may lie anywhere), then reads it;
 * `check(size)` may refuse it before the read. `knowledgeDir` names the knowledge folder in the refusal.
 */
export async function readSourceFile(source: string, folders: readonly string[], knowledgeDir: string, check: (size: number) => void): Promise<Buffer> {
  if (!path.isAbsolute(source)) throw haError(ErrorCodes.InvalidValue, `cannot add ${source} to the knowledge base: give the file's absolute path`, { source });
  const real = folders.map(realFolder).filter((f): f is string => f !== undefined);
  const unreadable = (error: NodeJS.ErrnoException): never => {
    throw haError(ErrorCodes.NotFound, `cannot add ${source} to the knowledge base: it is not a readable file (${error.code ?? error.message})`, { source });
  };
  // Checked before the open too: nothing outside the folders is even opened (opening a device can act on it).
  refuseOutside(source, await fs.promises.realpath(source).catch(unreadable), real, knowledgeDir);
  const handle = await fs.promises.open(source, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY).catch(unreadable);
  try {
    refuseOutside(source, await fs.promises.readlink(`/proc/self/fd/${handle.fd}`), real, knowledgeDir);
    const stat = await handle.stat();
    if (!stat.isFile()) throw haError(ErrorCodes.NotFound, `cannot add ${source} to the knowledge base: it is not a regular file`, { source });
    if (stat.nlink > 1) {
      throw haError(
        ErrorCodes.PermissionDenied,
        `cannot add ${source} to the knowledge base: it has ${stat.nlink} hard links, and the others may lie outside the allowed folders; copy it instead of linking it`,
        { source, links: stat.nlink },
      );
    }
    check(stat.size);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** Refuses a source whose real path lies in none of the (real) folders, naming them and the setting that widens them. */
function refuseOutside(source: string, realPath: string, folders: readonly string[], knowledgeDir: string): void {
  if (folders.some((folder) => realPath === folder || realPath.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep))) return;
  const via = realPath === source ? '' : ` (it leads to ${realPath})`;
  throw haError(
    ErrorCodes.PermissionDenied,
    `cannot add ${source} to the knowledge base: it is outside the folders it takes files from${via}: ${folders.join(', ')}. ` +
      `Copy it into the knowledge folder ${knowledgeDir}, or have the owner add its folder to ${ROOTS_SETTING.label} on the machine (homectl config set ${ROOTS_SETTING.label} '["/a/folder", …]')`,
    { source, realPath, folders: [...folders] },
  );
}

/** A folder's real path, or undefined when it does not exist (nothing can lie inside it then). */
function realFolder(folder: string): string | undefined {
  try {
    return fs.realpathSync(folder);
  } catch {
    return undefined;
  }
}
