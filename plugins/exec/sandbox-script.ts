// The command line that runs one command in the sandbox (homed as root): util-linux unshare gives it new mount,
// pid and network namespaces; inside, a set-up script (pid 1, root) lays an overlay over each allowed root, makes
// every other mount read-only, gives it a private /tmp and /proc, reports `ready` on fd 3 and runs the command as
// the exec uid with no privileges and a process limit. When pid 1 ends, the kernel kills everything in the namespace.
import * as path from 'node:path';
import { shellQuote as q } from './shell-quote';

/** Where the overlay of one root keeps its layers. */
export interface OverlayLayer {
  /** The allowed root (a real, absolute path). */
  root: string;
  upper: string;
  work: string;
}

export interface SandboxScriptInput {
  tools: { unshare: string; mount: string; setpriv: string; prlimit: string };
  layers: OverlayLayer[];
  /** An empty folder the private /tmp is mounted on before it is moved over /tmp. */
  tmpStage: string;
  tmpBytes: number;
  cwd: string;
  uid: number;
  gid: number;
  maxProcesses: number;
  network: boolean;
  /** The command's argv. */
  argv: string[];
}

/** The file and arguments to spawn. */
export function sandboxCommand(input: SandboxScriptInput): { file: string; args: string[] } {
  const flags = ['--mount', '--pid', '--fork', '--kill-child', '--propagation', 'private', ...(input.network ? [] : ['--net'])];
  return { file: input.tools.unshare, args: [...flags, '--', '/bin/sh', '-c', sandboxScript(input), 'exec-sandbox'] };
}

/** Where a root's overlay is mounted before /tmp is replaced: under the staged /tmp for roots inside /tmp. */
function mountPointOf(root: string, tmpStage: string): string {
  return root === '/tmp' || root.startsWith('/tmp/') ? path.join(tmpStage, root.slice('/tmp'.length)) : root;
}

function sandboxScript(input: SandboxScriptInput): string {
  const { mount } = input.tools;
  const keep = [q(input.tmpStage), `${q(input.tmpStage)}/*`];
  const lines = ['set -eu', `${mount} -n -t tmpfs -o mode=1777,size=${input.tmpBytes} exec-tmp ${q(input.tmpStage)}`];
  for (const layer of input.layers) {
    const target = mountPointOf(layer.root, input.tmpStage);
    const options = `lowerdir=${layer.root},upperdir=${layer.upper},workdir=${layer.work},redirect_dir=off,metacopy=off,index=off,xino=off`;
    if (target !== layer.root) lines.push(`mkdir -p ${q(target)}`);
    else keep.push(q(target), `${q(target)}/*`);
    lines.push(`${mount} -n -t overlay exec-overlay -o ${q(options)} ${q(target)}`);
  }
  lines.push(
    // Already read-only mounts, and kernel file systems whose files only root may write, are left as they are
    // (each remount is one mount(8) run, the bulk of the set-up time).
    'while read -r _ _ _ _ mp opts rest; do',
    '  case "$opts" in ro|ro,*) continue;; esac',
    `  case "$rest" in *' - proc '*|*' - sysfs '*|*' - cgroup '*|*' - cgroup2 '*|*' - devpts '*|*' - mqueue '*|*' - securityfs '*|*' - pstore '*|*' - bpf '*|*' - tracefs '*|*' - debugfs '*) continue;; esac`,
    `  case "$mp" in *\\\\*) mp=$(printf '%b' "$mp");; esac`,
    `  case "$mp" in ${keep.join('|')}) continue;; esac`,
    `  ${mount} -n -o remount,bind,ro "$mp"`,
    'done < /proc/self/mountinfo',
    `${mount} -n --move ${q(input.tmpStage)} /tmp`,
    `${mount} -n -t proc proc /proc`,
    'echo ready >&3',
    'exec 3>&-',
    `cd ${q(input.cwd)}`,
    'set +e',
    [
      input.tools.setpriv,
      `--reuid=${input.uid}`,
      `--regid=${input.gid}`,
      '--clear-groups',
      '--no-new-privs',
      '--',
      input.tools.prlimit,
      `--nproc=${input.maxProcesses}:${input.maxProcesses}`,
      '--',
      ...input.argv.map(q),
    ].join(' '),
    'exit $?',
  );
  return lines.join('\n');
}
