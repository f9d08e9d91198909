// Discovery and precedence on real folders: six levels deep (the seventh is not looked at), a skill folder's own
// subfolders are not skills, the same name in two sources is shadowed, and a bad file is listed with its error.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test, type TestContext } from 'node:test';
import { MAX_SKILL_BYTES } from '../../../../protocol/skills';
import { loadCatalog } from '../../../../plugins/openclaw/skills/catalog';
import { discoverSkills } from '../../../../plugins/openclaw/skills/discovery';
import { describeStatus, type GateContext } from '../../../../plugins/openclaw/skills/gating';
import { writeUnder } from '../../../harness/scratch';

function scratch(t: TestContext): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-catalog-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function skillText(name: string, description = `the ${name} skill`, openclaw?: object): string {
  const metadata = openclaw ? `metadata: '${JSON.stringify({ openclaw })}'\n` : '';
  return `---\nname: ${name}\ndescription: ${description}\n${metadata}---\n# ${name}\n`;
}

const GATE: GateContext = { platform: 'linux', pathValue: '', env: {}, settings: () => undefined, config: () => undefined };

test('skills are found up to six levels deep; the seventh level is not looked at', async (t) => {
  const root = scratch(t);
  writeUnder(root, 'one/SKILL.md', skillText('one'));
  writeUnder(root, 'a/b/c/d/e/six/SKILL.md', skillText('six'));
  writeUnder(root, 'a/b/c/d/e/f/seven/SKILL.md', skillText('seven'));
  const found = await discoverSkills([{ name: 'data', dir: root }]);
  assert.deepEqual(
    found.map((entry) => [path.basename(entry.dir), entry.depth]),
    [
      ['six', 6],
      ['one', 1],
    ],
  );
});

test("a skill folder's subfolders, hidden folders and node_modules are not searched", async (t) => {
  const root = scratch(t);
  writeUnder(root, 'outer/SKILL.md', skillText('outer'));
  writeUnder(root, 'outer/nested/SKILL.md', skillText('nested'));
  writeUnder(root, '.hidden/SKILL.md', skillText('hidden'));
  writeUnder(root, 'node_modules/dep/SKILL.md', skillText('dep'));
  const found = await discoverSkills([{ name: 'data', dir: root }]);
  assert.deepEqual(
    found.map((entry) => path.basename(entry.dir)),
    ['outer'],
  );
});

test('a symlink loop does not make the walk go round', async (t) => {
  const root = scratch(t);
  writeUnder(root, 'real/x/SKILL.md', skillText('x'));
  fs.symlinkSync(root, path.join(root, 'real', 'loop'));
  const found = await discoverSkills([{ name: 'data', dir: root }]);
  assert.deepEqual(
    found.map((entry) => entry.dir),
    [path.join(root, 'real', 'x')],
  );
});

test('the same name in two sources: the higher one wins, the other is listed as shadowed', async (t) => {
  const root = scratch(t);
  const high = path.join(root, 'high');
  const low = path.join(root, 'low');
  writeUnder(high, 'weather/SKILL.md', skillText('weather', 'the high one'));
  writeUnder(low, 'forecast/SKILL.md', skillText('weather', 'the low one'));
  writeUnder(low, 'only-low/SKILL.md', skillText('only-low'));
  const catalog = await loadCatalog(
    [
      { name: 'data', dir: high },
      { name: 'extra', dir: low },
      { name: 'absent', dir: path.join(root, 'none') },
    ],
    GATE,
  );
  assert.deepEqual(
    catalog.skills.map((entry) => [entry.name, entry.source, entry.skill?.description]),
    [
      ['weather', 'data', 'the high one'],
      ['only-low', 'extra', 'the only-low skill'],
    ],
  );
  assert.equal(catalog.shadowed.length, 1);
  assert.equal(catalog.shadowed[0]?.skill?.description, 'the low one');
  assert.equal(catalog.shadowed[0]?.shadowedBy, path.join(high, 'weather', 'SKILL.md'));
  const swapped = await loadCatalog(
    [
      { name: 'extra', dir: low },
      { name: 'data', dir: high },
    ],
    GATE,
  );
  assert.equal(swapped.skills.find((entry) => entry.name === 'weather')?.skill?.description, 'the low one');
});

test('skills are gated as they load; a file that cannot be parsed is listed with its message', async (t) => {
  const root = scratch(t);
  writeUnder(root, 'needs-bin/SKILL.md', skillText('needs-bin', 'd', { requires: { bins: ['never-there-bin'] } }));
  writeUnder(root, 'broken/SKILL.md', '---\nname: broken\n');
  writeUnder(root, 'huge/SKILL.md', skillText('huge') + 'x'.repeat(MAX_SKILL_BYTES));
  writeUnder(root, 'fine/SKILL.md', skillText('fine'));
  const catalog = await loadCatalog([{ name: 'data', dir: root }], GATE);
  const byName = Object.fromEntries(catalog.skills.map((entry) => [entry.name, describeStatus(entry.status)]));
  assert.deepEqual(byName, {
    broken:
      'error: invalid frontmatter: UNTERMINATED_FRONTMATTER: the frontmatter opened on line 1 has no closing line that is exactly "---"; add one after the last key',
    fine: 'ready',
    huge: `error: SKILL.md is ${fs.statSync(path.join(root, 'huge', 'SKILL.md')).size} bytes; the most read is ${MAX_SKILL_BYTES}`,
    'needs-bin': 'missing (bins: never-there-bin)',
  });
});
