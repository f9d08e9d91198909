// Running the system's own tools (systemctl, useradd, getent …) for install-service, each failure with its words.
import { spawnSync } from 'node:child_process';

/** A step of install-service or uninstall-service that could not be done; its message says what to do. */
export class ServiceSetupError extends Error {
  override name = 'ServiceSetupError';
}

/** What a finished command said. */
export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; never throws (a missing command is status null with the reason in stderr). */
export function runTool(command: string, args: readonly string[], timeoutMs = 180_000): RunResult {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: timeoutMs });
  if (result.error) return { status: null, stdout: '', stderr: `${command}: ${result.error.message}` };
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs a command that must succeed; otherwise throws with the command, its words and `hint`. */
export function mustRun(command: string, args: readonly string[], hint = ''): string {
  const result = runTool(command, args);
  if (result.status === 0) return result.stdout;
  const said = (result.stderr || result.stdout).trim() || `exit ${result.status ?? 'unknown'}`;
  throw new ServiceSetupError(`${[command, ...args].join(' ')} failed: ${said}${hint ? `; ${hint}` : ''}`);
}
