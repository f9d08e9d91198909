// Whether a process under another uid can load this checkout's compiled code: not from a root user's clone under
// /root (0700), where a test that runs node as another uid skips, saying so.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from './homed';

/** Why `uid` cannot read dist/ of this checkout, or undefined when it can (or setpriv is missing: the test says that itself). */
export function checkoutUnreadableBy(uid: number): string | undefined {
  const probe = path.join(REPO_ROOT, 'dist', 'kernel', 'main.js');
  const run = spawnSync(
    'setpriv',
    [`--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--', process.execPath, '-e', `require('fs').accessSync(${JSON.stringify(probe)}, 4)`],
    { encoding: 'utf8' },
  );
  if (run.error || run.status === 0) return undefined;
  return `uid ${uid} cannot read this checkout (${REPO_ROOT}; a clone in a 0700 folder such as /root): it needs to run node as that uid`;
}

/**
 * Why a plugin's own uid could not start this node — a folder above it that other users may not pass (such as a
 * 0700 temp dir), or the binary itself not executable by others — or undefined when it could. homed then runs
 * every plugin as its own user and says why; a test of the own-uid wall skips with that reason.
 */
export function nodeUnrunnableByOthers(): string | undefined {
  const node = fs.realpathSync(process.execPath);
  for (let folder = path.dirname(node); ; folder = path.dirname(folder)) {
    if ((fs.statSync(folder).mode & 0o001) === 0)
      return `node (${node}) is out of reach of other users here: ${folder} is not searchable by them, so no plugin gets a uid of its own`;
    if (path.dirname(folder) === folder) break;
  }
  if ((fs.statSync(node).mode & 0o001) === 0) return `node (${node}) may not be run by other users here, so no plugin gets a uid of its own`;
  return undefined;
}
