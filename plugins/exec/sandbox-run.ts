// One command in the sandbox (homed is root): overlay layers in a folder of its own under the plugin's data, the
// command run by sandbox-script.ts, then each upper layer carried over to its root and recorded as one change set.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathsBelow, type ChangeEntry, type ChangeStore } from '../../plugin-host/tracker';
import { applyUpperLayer, type ApplyFailure } from './apply-upper';
import { EXEC_UID, type ExecPolicy } from './policy';
import { runProcess, type RunOptions, type RunOutcome } from '../../plugin-host/run-process';
import { sandboxCommand, type OverlayLayer } from './sandbox-script';
import { readUpperLayer } from './upper-layer';

export interface SandboxTools {
  unshare: string;
  mount: string;
  setpriv: string;
}

export interface SandboxRun {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  roots: string[];
  policy: ExecPolicy;
  /** A folder for this call's layers (removed afterwards). */
  stageDir: string;
  tools: SandboxTools;
}

export interface CapturedRun {
  outcome: RunOutcome;
  entries: ChangeEntry[];
  failures: ApplyFailure[];
  /** From spawn to the set-up's `ready`. */
  setupMs: number;
  captureMs: number;
}

/** Thrown when the sandbox could not be set up (the command did not run). */
export class SandboxSetupError extends Error {
  override name = 'SandboxSetupError';
}

/** Runs the command in the sandbox and carries its changes over; `store` takes the states before and after. */
export async function runInSandbox(run: SandboxRun, store: ChangeStore, options: Omit<RunOptions, 'onControl'>): Promise<CapturedRun> {
  const stageDir = fs.realpathSync(run.stageDir);
  if (/[,:\\\n]/.test(stageDir))
    throw new SandboxSetupError(
      `the folder ${stageDir} has a comma, colon, backslash or newline in its name, which an overlay mount cannot take; move the data folder`,
    );
  const layers = prepareLayers(run.roots, stageDir);
  const tmpStage = path.join(stageDir, 'tmp');
  fs.mkdirSync(tmpStage);
  const fstabPath = path.join(stageDir, 'fstab');
  const spec = sandboxCommand({
    tools: run.tools,
    layers,
    stageDir,
    tmpStage,
    tmpBytes: run.policy.tmpBytes,
    fstabPath,
    cwd: run.cwd,
    uid: EXEC_UID,
    gid: EXEC_UID,
    maxProcesses: run.policy.maxProcesses,
    network: run.policy.network,
    argv: run.argv,
  });
  fs.writeFileSync(fstabPath, spec.fstab, { mode: 0o600 });
  let readyAt: number | null = null;
  const setupErrors: string[] = [];
  const early: Buffer[] = [];
  const outcome = await runProcess(
    { file: spec.file, args: spec.args, cwd: '/', env: run.env },
    {
      ...options,
      groupHoldsTree: true,
      onOutput: (chunk) => {
        // Before `ready`, output can only be unshare's complaint or the command's first words.
        if (readyAt === null && early.length < 8) early.push(chunk);
        options.onOutput(chunk);
      },
      onControl: (line) => {
        if (line === 'ready') readyAt = performance.now();
        else setupErrors.push(line);
      },
    },
  );
  if (readyAt === null) {
    if (outcome.killed) return { outcome, entries: [], failures: [], setupMs: outcome.durationMs, captureMs: 0 };
    throw new SandboxSetupError(
      `the sandbox could not be set up: ${[...setupErrors, Buffer.concat(early).toString('utf8')].join('\n').trim() || `exit ${outcome.exitCode}`}`,
    );
  }
  const captureStart = performance.now();
  const entries: ChangeEntry[] = [];
  const failures: ApplyFailure[] = [];
  for (const layer of layers) {
    const captured = await captureLayer(layer, store);
    entries.push(...captured.entries);
    failures.push(...captured.failures);
  }
  return { outcome, entries, failures, setupMs: (readyAt as number) - outcome.startedAt, captureMs: performance.now() - captureStart };
}

/** An upper and a work folder per root; the upper folder takes the root's owner and mode (the overlay shows them). */
function prepareLayers(roots: string[], stageDir: string): OverlayLayer[] {
  return roots.map((root, i) => {
    if (/[,:\\\n]/.test(root))
      throw new SandboxSetupError(`the root ${root} has a comma, colon, backslash or newline in its name, which an overlay mount cannot take; rename it`);
    const upper = path.join(stageDir, String(i), 'upper');
    const work = path.join(stageDir, String(i), 'work');
    fs.mkdirSync(upper, { recursive: true });
    fs.mkdirSync(work);
    const stat = fs.statSync(root);
    fs.chownSync(upper, stat.uid, stat.gid);
    fs.chmodSync(upper, stat.mode & 0o7777);
    return { root, upper, work };
  });
}

async function captureLayer(layer: OverlayLayer, store: ChangeStore): Promise<{ entries: ChangeEntry[]; failures: ApplyFailure[] }> {
  const upperEntries = await readUpperLayer(layer.upper, layer.root);
  if (upperEntries.length === 0) return { entries: [], failures: [] };
  const touched = new Set<string>();
  for (const entry of upperEntries) {
    const real = path.join(layer.root, entry.rel);
    touched.add(real);
    if (entry.opaque || entry.kind !== 'dir') for (const below of pathsBelow(real)) touched.add(below);
  }
  const paths = [...touched];
  const before = paths.map((p) => store.stateOf(p));
  const failures = applyUpperLayer(layer.upper, layer.root, upperEntries);
  const entries = paths.map((p, i) => ({ path: p, before: before[i] as ChangeEntry['before'], after: store.stateOf(p) }));
  return { entries, failures };
}
