// The command line that runs one command in the sandbox (homed as root): util-linux unshare gives it new mount,
// pid and network namespaces; inside, a set-up script (pid 1, root) makes every mount read-only, lays an overlay
// over each allowed root, gives the command a private /tmp and its own /proc, reports on fd 3 (its errors, then
// `ready`) and runs the command as the exec uid with no privileges and a process limit. When pid 1 ends, the
// kernel kills everything in the namespace. Each mount(8) run costs a few milliseconds whatever it does, so the
// set-up is two runs, whatever the mount table and the number of roots: `mount -a -o remount` over every mounted
// file system, then `mount -a` over a per-call fstab with the call's own mounts.
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
  tools: { unshare: string; mount: string; setpriv: string };
  layers: OverlayLayer[];
  /** The call's folder (real path): it holds the upper layers, the stage and the fstab. */
  stageDir: string;
  /** An empty folder in it, where the private /tmp is mounted before it is bound over /tmp. */
  tmpStage: string;
  tmpBytes: number;
  /** Where the caller writes `fstab` (the call's mounts, read by `mount -a`). */
  fstabPath: string;
  cwd: string;
  uid: number;
  gid: number;
  maxProcesses: number;
  network: boolean;
  /** The command's argv. */
  argv: string[];
}

/** The file and arguments to spawn, and the fstab to write at `fstabPath` first. */
export function sandboxCommand(input: SandboxScriptInput): { file: string; args: string[]; fstab: string } {
  const flags = ['--mount', '--pid', '--fork', '--kill-child', '--propagation', 'private', ...(input.network ? [] : ['--net'])];
  return { file: input.tools.unshare, args: [...flags, '--', '/bin/sh', '-c', sandboxScript(input), 'exec-sandbox'], fstab: sandboxFstab(input) };
}

/** Where a root's overlay is mounted before /tmp is replaced: under the staged /tmp for roots inside /tmp. */
function mountPointOf(root: string, tmpStage: string): string {
  return root === '/tmp' || root.startsWith('/tmp/') ? path.join(tmpStage, root.slice('/tmp'.length)) : root;
}

/**
 * The call's mounts, in order, made after every other mount went read-only: the call's folder bound onto itself
 * read-write (the upper layers live there), the private /tmp on the stage, an overlay per root (a root inside /tmp
 * lands in the staged /tmp, its mount point made by X-mount.mkdir), the stage bound over /tmp with the overlays in
 * it, then /proc. Each of them is made after the read-only pass, so none is touched by it, even where a mount of
 * the host sits at the same place (a root that is a mount point of its own, a /tmp that is a tmpfs).
 */
function sandboxFstab(input: SandboxScriptInput): string {
  const lines = [
    fstabLine(input.stageDir, input.stageDir, 'none', 'bind,nosuid,nodev'),
    fstabLine('exec-tmp', input.tmpStage, 'tmpfs', `mode=1777,size=${input.tmpBytes},nosuid,nodev`),
  ];
  for (const layer of input.layers) {
    const options = `lowerdir=${layer.root},upperdir=${layer.upper},workdir=${layer.work},redirect_dir=off,metacopy=off,index=off,xino=off`;
    const target = mountPointOf(layer.root, input.tmpStage);
    lines.push(fstabLine('exec-overlay', target, 'overlay', target === layer.root ? options : `${options},X-mount.mkdir`));
  }
  lines.push(fstabLine(input.tmpStage, '/tmp', 'none', 'rbind'));
  // A /proc of the new pid namespace (`mount -a` would take a source named `proc` for the host's, already there).
  lines.push(fstabLine('exec-proc', '/proc', 'proc', 'nosuid,nodev,noexec'));
  return `${lines.join('\n')}\n`;
}

/** One fstab line; spaces, tabs, newlines and backslashes in a field are written as octal escapes. */
function fstabLine(source: string, target: string, type: string, options: string): string {
  return [source, target, type, options, '0', '0']
    .map((field) => field.replace(/[ \t\n\\]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`))
    .join(' ');
}

function sandboxScript(input: SandboxScriptInput): string {
  const { mount } = input.tools;
  return [
    'set -eu',
    // The set-up's own messages go to the control pipe (fd 3), so the command's output is never mistaken for them.
    'exec 4>&2 2>&3',
    // Every mount, whatever its owner and modes (kernel ones and covered ones too): a write outside the roots has
    // nowhere to land, even in a world-writable folder or a file the exec uid owns. It comes first, while every
    // mount point (one under /proc too) still leads to the mount it names.
    `${mount} -n -a -o remount,bind,ro`,
    `${mount} -n -a -T ${q(input.fstabPath)}`,
    'echo ready >&3',
    'exec 2>&4 3>&- 4>&-',
    `cd ${q(input.cwd)}`,
    // The process limit, set by the shell itself: dash names it -p, bash and busybox -u.
    `ulimit -u ${input.maxProcesses} 2>/dev/null || ulimit -p ${input.maxProcesses}`,
    'set +e',
    [input.tools.setpriv, `--reuid=${input.uid}`, `--regid=${input.gid}`, '--clear-groups', '--no-new-privs', '--', ...input.argv.map(q)].join(' '),
    'exit $?',
  ].join('\n');
}
