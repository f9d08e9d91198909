// A real homed for the openclaw plugin's tests: generated skills written into its folders, the skills/* client
// methods called over its real socket, and waits on what they answer.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TestContext } from 'node:test';
import { callOnce } from '../../../plugins/cli/client';
import { adminSocketInDataDir } from '../../../plugins/cli/locate';
import type { RequestDescriptor } from '../../../protocol';
import { SkillsApi, type SkillStatusName, type SkillSummary, type SkillsListResult } from '../../../protocol/skills';
import { fakeProviderEnv, makeTempDir, startHomed, type HomedHandle } from '../../harness/homed';
import { writeUnder } from '../../harness/scratch';
import { waitFor } from '../../harness/wait';
import type { FakeLlm } from '../../fake-llm/server';

/** A SKILL.md: frontmatter with name, description, more lines as given, the `metadata.openclaw` block; then the body. */
export function skillText(name: string, options: { description?: string; openclaw?: object; frontmatter?: string; body?: string } = {}): string {
  const metadata = options.openclaw ? `metadata: '${JSON.stringify({ openclaw: options.openclaw })}'\n` : '';
  const body = options.body ?? `# ${name}\nRun the ${name} steps.\n`;
  return `---\nname: ${name}\ndescription: ${options.description ?? `the ${name} skill`}\n${options.frontmatter ?? ''}${metadata}---\n${body}`;
}

export interface SkillsRig {
  homed: HomedHandle;
  /** A folder on homed's PATH (first), empty at start. */
  binDir: string;
  /** A scratch folder for extra skill folders and install sources. */
  scratch: string;
  /** `<data>/skills`. */
  skillsDir: string;
  /** The owner's admin socket, where `call` goes: a socket method is called there with `callOnce(rig.adminSocket, SocketApi.X, params)`. */
  adminSocket: string;
  /** Calls a client method through its descriptor on the admin socket (`rig.call(SkillsApi.Info, { name })`). */
  call<P, R>(descriptor: RequestDescriptor<P, R>, params: NoInfer<P>): Promise<R>;
  list(): Promise<SkillsListResult>;
  /** Waits until skills/list shows `name` (in effect) with `status`; answers its summary. */
  waitStatus(name: string, status: SkillStatusName, timeoutMs?: number): Promise<SkillSummary>;
  /** Writes a SKILL.md into `<data>/skills/<folder>`. */
  writeSkill(folder: string, text: string): string;
  /** Puts an executable script named `name` into the PATH folder. */
  putOnPath(name: string, script?: string): string;
}

/** Starts homed with a PATH folder of its own first on PATH (and the fake LLM as its provider, when given). */
export async function startSkillsRig(t: TestContext, options: { llm?: FakeLlm } = {}): Promise<SkillsRig> {
  const scratch = makeTempDir('skills-rig-');
  t.after(() => fs.rmSync(scratch, { recursive: true, force: true }));
  const binDir = path.join(scratch, 'bin');
  fs.mkdirSync(binDir);
  const env = { PATH: `${binDir}${path.delimiter}${process.env['PATH'] ?? ''}`, ...(options.llm ? fakeProviderEnv(options.llm) : {}) };
  const homed = await startHomed({ env });
  t.after(() => homed.cleanup());
  const skillsDir = path.join(homed.dataDir, 'skills');
  // As the owner's homectl calls: through the admin socket, where owner-only methods (skills/setup) are served.
  const adminSocket = adminSocketInDataDir(homed.dataDir);
  const call = <P, R>(descriptor: RequestDescriptor<P, R>, params: NoInfer<P>): Promise<R> => callOnce(adminSocket, descriptor, params);
  const list = (): Promise<SkillsListResult> => call(SkillsApi.List, {});
  return {
    homed,
    binDir,
    scratch,
    skillsDir,
    adminSocket,
    call,
    list,
    waitStatus: (name, status, timeoutMs = 5_000) =>
      waitFor(async () => (await list()).skills.find((skill) => skill.name === name && skill.status === status), {
        what: `skill ${name} to be ${status}`,
        timeoutMs,
        intervalMs: 25,
      }),
    writeSkill: (folder, text) => writeUnder(skillsDir, path.join(folder, 'SKILL.md'), text),
    putOnPath: (name, script = '#!/bin/sh\necho stub\n') => {
      const file = path.join(binDir, name);
      fs.writeFileSync(file, script, { mode: 0o755 });
      return file;
    },
  };
}
