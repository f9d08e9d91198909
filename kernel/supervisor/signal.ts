// Signalling a plugin's processes. A plugin with a uid of its own can be signalled by root or with CAP_KILL;
// the installed service has neither (it keeps its capabilities to the walls'), so it signals as that uid.
import { spawn } from 'node:child_process';
import treeKill from 'tree-kill';
import { capabilityDropArgs } from './capabilities';
import { findTool } from './sandbox';

/** The uid and gid a sandboxed plugin runs as. */
export interface RunAs {
  uid: number;
  gid: number;
}

/** Signals a plugin's whole process group and tree; a process already gone is not an error. */
export function signalPlugin(pid: number, signal: NodeJS.Signals, runAs: RunAs | null): void {
  if (pid <= 0) return;
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EPERM' && runAs) signalAs(runAs, pid, signal);
  }
  treeKill(pid, signal, () => undefined);
}

/** Sends the signal to the process group as the plugin's own uid (homed may switch to it: CAP_SETUID). */
function signalAs(runAs: RunAs, pgid: number, signal: NodeJS.Signals): void {
  const setpriv = findTool('setpriv');
  if (!setpriv) return;
  const kill = findTool('kill');
  // procps kill where installed; node itself otherwise.
  const command = kill
    ? [kill, '-s', signal.replace(/^SIG/, ''), '--', `-${pgid}`]
    : [process.execPath, '-e', `try { process.kill(-${pgid}, '${signal}') } catch {}`];
  const args = [`--reuid=${runAs.uid}`, `--regid=${runAs.gid}`, '--clear-groups', ...capabilityDropArgs(), '--', ...command];
  spawn(setpriv, args, { stdio: 'ignore' }).on('error', () => undefined);
}
