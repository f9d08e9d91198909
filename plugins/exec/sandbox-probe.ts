// Whether this machine lets homed build the exec sandbox at all: a new mount, pid and network namespace, a tmpfs and
// an overlay mounted in it, and a switch to the exec uid. Some container runtimes forbid mounts even to root; there
// `exec:tracking auto` runs commands plainly (with snapshots) instead of failing every call.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EXEC_UID } from './policy';
import type { SandboxTools } from './sandbox-run';

let verdict: string | null | undefined;

/** Why the sandbox cannot be built here (the failing step's own words), or null when it can; tried once per process. */
export function sandboxProblem(tools: SandboxTools): string | null {
  if (verdict !== undefined) return verdict;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'exec-probe-'));
  try {
    const script = [
      'set -e',
      `${tools.mount} -n -t tmpfs exec-probe "$1"`,
      'mkdir "$1/l" "$1/u" "$1/w" "$1/m"',
      `${tools.mount} -n -t overlay exec-probe -o "lowerdir=$1/l,upperdir=$1/u,workdir=$1/w" "$1/m"`,
      `exec ${tools.setpriv} --reuid=${EXEC_UID} --regid=${EXEC_UID} --clear-groups --no-new-privs /bin/true`,
    ].join('\n');
    const probe = spawnSync(
      tools.unshare,
      ['--mount', '--pid', '--fork', '--kill-child', '--propagation', 'private', '--net', '--', '/bin/sh', '-c', script, 'probe', dir],
      {
        encoding: 'utf8',
        timeout: 10_000,
      },
    );
    if (probe.error) verdict = `${tools.unshare} could not run (${probe.error.message})`;
    else if (probe.status !== 0) verdict = `building it failed here: ${(probe.stderr || `exit ${probe.status ?? probe.signal}`).trim()}`;
    else verdict = null;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return verdict;
}
