// Whether a process under another uid can load this checkout's compiled code: not from a root user's clone under
// /root (0700), where a test that runs node as another uid skips, saying so.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { REPO_ROOT } from './homed';

/** Why `uid` cannot read dist/ of this checkout, or undefined when it can (or setpriv is missing: the test says that itself). */
export function checkoutUnreadableBy(uid: number): string | undefined {
  const probe = path.join(REPO_ROOT, 'dist', 'kernel', 'main.js');
  const run = spawnSync('setpriv', [`--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--', process.execPath, '-e', `require('fs').accessSync(${JSON.stringify(probe)}, 4)`], { encoding: 'utf8' });
  if (run.error || run.status === 0) return undefined;
  return `uid ${uid} cannot read this checkout (${REPO_ROOT}; a clone in a 0700 folder such as /root): it needs to run node as that uid`;
}
