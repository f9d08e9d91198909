// Section `skills`: finding, reading, parsing and gating 500 generated SKILL.md files of the corpus's sizes
// (1–11 kB, a third with multi-line JSON5 metadata), beside fs.readFile of the same files alone; and the trust
// scan of their bodies, beside a plain line split of the same text.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadCatalog } from '../../plugins/openclaw/skills/catalog';
import type { GateContext } from '../../plugins/openclaw/skills/gating';
import { scanBody } from '../../plugins/openclaw/skills/trust-scan';
import { seededRandom } from './random';
import { makeRow, type BenchRow } from './results';
import { median, msSince } from './stats';

export const SKILLS_PLAN = { skills: 500, rounds: 9 };

const SECTION = 'skills';
const WORDS = 'use the cli to list search create update delete notes tasks files when the user asks about weather calendar mail pages'.split(' ');

/** Load-and-gate time and scan time over a generated tree, each beside its baseline, rounds interleaved. */
export async function benchSkills(plan = SKILLS_PLAN): Promise<BenchRow[]> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'homed-bench-skills-'));
  try {
    const files = writeSkills(root, plan.skills);
    const gate: GateContext = {
      platform: process.platform,
      pathValue: process.env['PATH'] ?? '',
      env: process.env,
      settings: () => undefined,
      config: () => undefined,
    };
    const loads: number[] = [];
    const reads: number[] = [];
    let bodies: { body: string; line: number }[] = [];
    for (let round = 0; round < plan.rounds; round++) {
      let start = performance.now();
      const catalog = await loadCatalog([{ name: 'bench', dir: root }], gate);
      loads.push(msSince(start));
      if (catalog.skills.length !== plan.skills) throw new Error(`loaded ${catalog.skills.length} of ${plan.skills} skills`);
      bodies = catalog.skills.flatMap((entry) => (entry.skill ? [{ body: entry.skill.body, line: entry.skill.bodyLine }] : []));
      start = performance.now();
      await Promise.all(files.map((file) => fs.promises.readFile(file, 'utf8')));
      reads.push(msSince(start));
    }
    const scans: number[] = [];
    const splits: number[] = [];
    let sink = 0;
    for (let round = 0; round < plan.rounds; round++) {
      let start = performance.now();
      for (const { body, line } of bodies) sink += scanBody(body, line).commands.length;
      scans.push(msSince(start));
      start = performance.now();
      for (const { body } of bodies) sink += body.split('\n').length;
      splits.push(msSince(start));
    }
    if (sink === 0) throw new Error('the scan found nothing');
    return [
      makeRow(SECTION, `find, read, parse and gate ${plan.skills} skills`, median(loads), 'ms', 'fs.readFile of the same files', median(reads), loads.length),
      makeRow(SECTION, `trust scan of ${plan.skills} bodies`, median(scans), 'ms', 'split of the same bodies into lines', median(splits), scans.length),
    ];
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** Writes `count` skills, some nested two or three folders down; answers their files. */
export function writeSkills(root: string, count: number): string[] {
  const random = seededRandom(13);
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    const nesting = i % 5 === 0 ? ['group', `g${i % 7}`] : [];
    const dir = path.join(root, ...nesting, `skill-${i}`);
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'SKILL.md');
    fs.writeFileSync(file, skillText(i, random));
    files.push(file);
  }
  return files;
}

function skillText(i: number, random: () => number): string {
  const words = (n: number): string => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
  const head = [`name: skill-${i}`, `description: "${words(14)}"`];
  if (i % 3 === 0) head.push(multiLineMetadata(i));
  else if (i % 3 === 1) head.push(`metadata: { "openclaw": { "emoji": "🧩", "requires": { "bins": ["tool-${i % 40}"] } } }`);
  const body: string[] = [`# Skill ${i}`, ''];
  const target = 1000 + Math.floor(random() * 10000);
  let size = 0;
  while (size < target) {
    const part =
      random() < 0.3
        ? ['```bash', `tool-${i % 40} ${words(4)} --json`, `curl -s https://api.example.com/${i} | jq .`, '```'].join('\n')
        : `${words(40)} \`tool-${i % 40} ${words(2)}\`.`;
    body.push(part, '');
    size += part.length + 2;
  }
  return `---\n${head.join('\n')}\n---\n${body.join('\n')}`;
}

function multiLineMetadata(i: number): string {
  return [
    'metadata:',
    '  {',
    '    "openclaw":',
    '      {',
    `        "requires": { "bins": ["tool-${i % 40}"], "env": ["TOKEN_${i % 9}"] },`,
    `        "primaryEnv": "TOKEN_${i % 9}",`,
    '        "install":',
    '          [',
    `            { "id": "brew", "kind": "brew", "formula": "tool-${i % 40}", "bins": ["tool-${i % 40}"], "label": "Install (brew)" },`,
    `            { "id": "node", "kind": "node", "package": "@bench/tool-${i % 40}", "bins": ["tool-${i % 40}"] },`,
    '          ],',
    '      },',
    '  }',
  ].join('\n');
}
