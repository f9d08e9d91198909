// skills/setup: runs exactly one install option a person was shown (and confirmed a second time): the package
// manager's command without a shell, with the PATH skills are gated against, or the checked download; then answers
// the output's tail and the skill's status after a refresh. Nothing else ever runs an install spec.
import * as path from 'node:path';
import type { SkillsSetupParams, SkillsSetupResult } from '../../protocol/skills';
import { findExecutable } from '../../protocol/runtime/executables';
import { badValue, noSkill, skillNamed } from './errors';
import { installArgv, listInstallOptions } from './install-options';
import type { LiveSkills } from './live-skills';
import type { OpenclawPolicy } from './policy';
import { runInstaller, type InstallerOptions, type InstallerRun } from './run-installer';
import { runDownload } from './setup-download';
import type { InstallSpec } from './skills/types';
import { describeTarget } from './views';

/** What each installer is, for the error when it is missing. */
const INSTALLERS: Record<string, string> = { brew: 'Homebrew', npm: 'Node.js (npm)', go: 'Go', uv: 'uv (Astral)' };

export async function setupSkill(live: LiveSkills, params: SkillsSetupParams, policy: OpenclawPolicy, workDir: string): Promise<SkillsSetupResult> {
  const entry = skillNamed(live.set, params.name);
  const specs = entry.skill?.metadata?.install ?? [];
  const toolsDir = live.set.toolsDirOf(entry);
  const options = listInstallOptions(specs, live.set.machine.platform, (spec) => describeTarget(toolsDir, spec.targetDir));
  const index = options.findIndex((option) => option.id === params.id);
  const option = options[index];
  const spec = specs[index];
  if (!option || !spec) {
    if (!entry.skill) throw noSkill(params.name);
    const ids = options.map((each) => each.id).join(', ') || 'none';
    throw badValue(
      `the skill ${JSON.stringify(params.name)} has no install option ${JSON.stringify(params.id)}; its options: ${ids} (homectl skills info ${params.name})`,
    );
  }
  if (!option.applies)
    throw badValue(`install option ${JSON.stringify(option.id)} is for ${(spec.os ?? []).join(', ')}; this machine is ${live.set.machine.platform}`);
  const pathValue = live.set.current.pathValue;
  const run: InstallerOptions = {
    env: { ...process.env, PATH: pathValue },
    cwd: workDir,
    timeoutMs: policy.setup.timeoutMs,
    tailChars: policy.setup.outputTailChars,
  };
  const outcome = await runOption(spec, run, toolsDir, policy);
  await live.refreshNow();
  const after = live.set.find(entry.name);
  return { command: option.label, exitCode: outcome.exitCode, output: outcome.output, status: after ? after.status.status : 'error' };
}

async function runOption(spec: InstallSpec, run: InstallerOptions, toolsDir: string, policy: OpenclawPolicy): Promise<InstallerRun> {
  const argv = installArgv(spec);
  if (!argv) {
    return runDownload({ spec, toolsDir, maxBytes: policy.setup.maxDownloadBytes, signal: AbortSignal.timeout(policy.setup.timeoutMs), run });
  }
  const program = argv[0] ?? '';
  if (!findExecutable(program, run.env['PATH'] ?? '')) {
    const folders = (run.env['PATH'] ?? '').split(path.delimiter).join(', ');
    throw badValue(`${program} is not installed here (not found in ${folders}); install ${INSTALLERS[program] ?? program} first, or pick another option`);
  }
  return runInstaller(argv, run);
}
