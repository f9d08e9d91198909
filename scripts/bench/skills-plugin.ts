// Section `skills`, the plugin's part: the openclaw plugin in a real homed with 500 generated skills in
// core.skills.path beside one with none — its RSS once they are loaded and once it has settled, and a restart until
// its set is listed; and the prompt block for 50 ready skills: its tokens, and its build time per turn beside
// JSON.stringify of the same list.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { buildPromptBlock, type BlockSkill } from '../../plugins/openclaw/prompt-block';
import { SkillsApi, SocketApi } from '../../protocol';
import { startFakeLlm } from '../../test/fake-llm/server';
import { SocketClient, startHomed } from './homed-process';
import { readRss } from './procfs';
import { seededRandom } from './random';
import { makeRow, type BenchRow } from './results';
import { writeSkills } from './skills';
import { median, msSince, sleep } from './stats';

export const SKILLS_PLUGIN_PLAN = { skills: 500, restarts: 5, settleMs: 20_000, blockSkills: 50, blockRounds: 2000 };

const SECTION = 'skills';
const WORDS =
  'search the web summarize notes create calendar events send mail check weather forecast track packages list files github issues pull requests'.split(' ');

/** A homed of its own on a data dir holding `count` skills, with a socket client. */
interface Rig {
  homed: ChildProcess;
  client: SocketClient;
  dataDir: string;
  count: number;
}

export async function benchSkillsPlugin(plan = SKILLS_PLUGIN_PLAN): Promise<BenchRow[]> {
  const llm = await startFakeLlm();
  const rigs: Rig[] = [];
  try {
    for (const count of [plan.skills, 0]) rigs.push(await startRig(count, llm));
    const [full, empty] = rigs as [Rig, Rig];
    await Promise.all(rigs.map((rig) => waitListed(rig)));
    const loaded = await Promise.all(rigs.map(async (rig) => readRss(await openclawPid(rig)).rssMb));
    await sleep(plan.settleMs);
    const settled = await Promise.all(rigs.map(async (rig) => readRss(await openclawPid(rig)).rssMb));
    const restartFull: number[] = [];
    const restartEmpty: number[] = [];
    for (let round = 0; round < plan.restarts; round++) {
      restartFull.push(await timeRestart(full));
      restartEmpty.push(await timeRestart(empty));
    }
    const block = benchBlock(plan.blockSkills, plan.blockRounds);
    return [
      makeRow(SECTION, `openclaw plugin RSS, ${plan.skills} skills just loaded`, loaded[0]!, 'MB', 'the plugin with no skills', loaded[1]!, 1),
      makeRow(
        SECTION,
        `openclaw plugin RSS, ${plan.skills} skills, settled ${plan.settleMs / 1000} s`,
        settled[0]!,
        'MB',
        'the plugin with no skills, settled',
        settled[1]!,
        1,
      ),
      makeRow(
        SECTION,
        `openclaw restart until ${plan.skills} skills are listed`,
        median(restartFull),
        'ms',
        'restart until its empty set is listed',
        median(restartEmpty),
        restartFull.length,
      ),
      makeRow(
        SECTION,
        `skills block for ${plan.blockSkills} ready skills: tokens (estimated)`,
        block.tokens,
        'tokens',
        'openclaw:prompt_budget default',
        1500,
        1,
      ),
      makeRow(
        SECTION,
        `build the skills block for ${plan.blockSkills} skills, per turn`,
        block.buildUs,
        'µs',
        'JSON.stringify of the same list',
        block.stringifyUs,
        plan.blockRounds,
      ),
    ];
  } finally {
    for (const rig of rigs) await stopRig(rig);
    await llm.close();
  }
}

async function startRig(count: number, llm: Awaited<ReturnType<typeof startFakeLlm>>): Promise<Rig> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'homed-bench-openclaw-'));
  if (count > 0) writeSkills(path.join(dataDir, 'skills'), count);
  const homed = await startHomed(dataDir, llm);
  const client = await SocketClient.connect(path.join(dataDir, 'run', 'homed.sock'));
  return { homed, client, dataDir, count };
}

async function stopRig(rig: Rig): Promise<void> {
  rig.client.close();
  if (rig.homed.exitCode === null) {
    rig.homed.kill('SIGTERM');
    await new Promise((resolve) => rig.homed.once('exit', resolve));
  }
  fs.rmSync(rig.dataDir, { recursive: true, force: true });
}

async function openclawPid(rig: Rig): Promise<number> {
  const { plugin } = await rig.client.call(SocketApi.PluginsInfo, { name: 'openclaw' });
  if (plugin.pid === null) throw new Error('the openclaw plugin is not running');
  return plugin.pid;
}

/** Waits until the plugin lists the rig's whole set. */
async function waitListed(rig: Rig, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const listed = await rig.client.call(SkillsApi.List, {});
      if (listed.total === rig.count) return;
    } catch {
      // not serving yet (restarting)
    }
    if (Date.now() > deadline) throw new Error(`the openclaw plugin did not list ${rig.count} skills within ${timeoutMs} ms`);
    await sleep(10);
  }
}

/** From asking for a restart to the plugin listing its set again. */
async function timeRestart(rig: Rig): Promise<number> {
  const start = performance.now();
  await rig.client.call(SocketApi.PluginsControl, { name: 'openclaw', action: 'restart' });
  await waitListed(rig);
  return msSince(start);
}

/** The block of `count` skills with one- or two-sentence descriptions: its tokens, and µs per build. */
function benchBlock(count: number, rounds: number): { tokens: number; buildUs: number; stringifyUs: number } {
  const random = seededRandom(50);
  const words = (n: number): string => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
  const skills: BlockSkill[] = Array.from({ length: count }, (_, i) => ({ name: `skill-${i}`, description: `${words(8 + Math.floor(random() * 16))}.` }));
  const tokens = buildPromptBlock(skills, 1500).tokens;
  let sink = 0;
  let start = performance.now();
  for (let i = 0; i < rounds; i++) sink += buildPromptBlock(skills, 1500).text.length;
  const buildUs = (msSince(start) * 1000) / rounds;
  start = performance.now();
  for (let i = 0; i < rounds; i++) sink += JSON.stringify(skills).length;
  const stringifyUs = (msSince(start) * 1000) / rounds;
  if (sink === 0) throw new Error('the block was empty');
  return { tokens, buildUs, stringifyUs };
}
