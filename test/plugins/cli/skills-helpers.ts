// Generated OpenClaw skills and stub programs for the homectl skills tests: SKILL.md folders written as OpenClaw
// expects them, a homed started with them in its skills folder, and programs that record how they were run.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir, runHomectl, startHomed, waitFor, type HomectlResult, type HomedHandle } from '../../harness/homed';

/** A skill as its SKILL.md frontmatter and body say it. */
export interface SkillSource {
  name: string;
  description: string;
  /** `metadata.openclaw`, written as one line of JSON. */
  openclaw?: Record<string, unknown>;
  body?: string;
}

/** The text of a SKILL.md. */
export function skillText(skill: SkillSource): string {
  const metadata = skill.openclaw ? `metadata: ${JSON.stringify({ openclaw: skill.openclaw })}\n` : '';
  return `---\nname: ${skill.name}\ndescription: ${skill.description}\n${metadata}---\n${skill.body ?? `# ${skill.name}\n\nUse it well.\n`}`;
}

/** Writes `<root>/<folder>/SKILL.md` (the folder defaults to the skill's name); answers the folder. */
export function writeSkill(root: string, skill: SkillSource, folder: string = skill.name): string {
  const dir = path.join(root, folder);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'SKILL.md'), skillText(skill));
  return dir;
}

/** Writes an executable shell script `name` into `dir`. */
export function writeProgram(dir: string, name: string, script: string): string {
  const file = path.join(dir, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return file;
}

/** A homed whose skills folder holds `skills` and whose PATH starts with a folder of its own (`bin`). */
export interface SkillsHomed {
  homed: HomedHandle;
  /** `<data>/skills`. */
  skillsDir: string;
  /** The folder first on homed's PATH, empty at start. */
  bin: string;
  /** Runs homectl against it. */
  ctl(...args: string[]): Promise<HomectlResult>;
  /** Stops homed and starts it again on the same data dir (what was disabled stays disabled). */
  restart(): Promise<void>;
  /** Stops homed and removes its data dir and the bin folder. */
  cleanup(): Promise<void>;
}

/** Starts homed with `skills` in `<data>/skills` and a PATH folder of the test's first, waiting until openclaw lists them. */
export async function startSkillsHomed(skills: SkillSource[], cwd?: string): Promise<SkillsHomed> {
  const dataDir = makeTempDir('skills-');
  const bin = makeTempDir('skills-bin-');
  const skillsDir = path.join(dataDir, 'skills');
  for (const skill of skills) writeSkill(skillsDir, skill);
  const start = () => startHomed({ dataDir, env: { PATH: `${bin}:${process.env['PATH'] ?? '/usr/bin:/bin'}` } });
  const ctl = (...args: string[]) => runHomectl(args, { dataDir, ...(cwd ? { cwd } : {}) });
  const handle: SkillsHomed = {
    homed: await start(),
    skillsDir,
    bin,
    ctl,
    restart: async () => {
      await handle.homed.stop();
      handle.homed = await start();
    },
    cleanup: async () => {
      await handle.homed.cleanup();
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(bin, { recursive: true, force: true });
    },
  };
  await waitFor(async () => (await listNames(ctl)).length >= skills.length, {
    what: `openclaw to list the ${skills.length} generated skills`,
    timeoutMs: 15_000,
  });
  return handle;
}

/** The names `skills list --json` shows in effect (none while openclaw is not serving yet). */
export async function listNames(ctl: (...args: string[]) => Promise<HomectlResult>): Promise<string[]> {
  const listed = await ctl('skills', 'list', '--json');
  if (listed.code !== 0) return [];
  return (JSON.parse(listed.stdout) as { skills: { name: string }[] }).skills.map((s) => s.name);
}
