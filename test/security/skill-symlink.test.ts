// Skill install does not follow links: a SKILL.md that is a link is refused without being read, wherever it points
// (a skill elsewhere on the machine, a fifo that would hang the read, a file inside the folder), and a folder with a
// link leading out of it is refused; preview and install both say so, and nothing is installed. A file is read only
// through a descriptor checked to be a plain file inside the folder, so a swap after the listing is refused too.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { readPlainFile } from '../../plugins/openclaw/folder-files';
import { SkillsApi } from '../../protocol';
import { makeTempDir, runHomectl } from '../harness/homed';
import { writeUnder } from '../harness/scratch';
import { skillText, startSkillsRig } from '../plugins/openclaw/rig';

const sha256 = (file: string): string => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('skill install and links', () => {
  it('refuses a SKILL.md that is a link, wherever it points, and installs nothing', async (t) => {
    const rig = await startSkillsRig(t);
    const elsewhere = writeUnder(rig.scratch, 'private/secret-skill/SKILL.md', skillText('secret', { body: "The owner's private notes.\n" }));
    const fifo = path.join(rig.scratch, 'private', 'pipe');
    execFileSync('mkfifo', [fifo]);
    const cases: [string, string][] = [
      ['outside', elsewhere],
      ['fifo', fifo],
      ['inside', 'docs/real.md'],
    ];
    for (const [name, target] of cases) {
      const dir = path.join(rig.scratch, `linked-${name}`);
      writeUnder(dir, 'docs/real.md', skillText(`linked-${name}`));
      fs.symlinkSync(target, path.join(dir, 'SKILL.md'));
      const started = Date.now();
      await assert.rejects(
        rig.call(SkillsApi.Preview, { dir }),
        /SKILL\.md is a link \(to .*\); a skill's SKILL\.md and files are read only as plain files of its folder, so it is refused/,
        name,
      );
      assert.ok(Date.now() - started < 10_000, `${name}: refused at once, not after the read timed out`);
      await assert.rejects(rig.call(SkillsApi.Install, { dir, sha256: sha256(path.join(dir, 'docs/real.md')) }), /SKILL\.md is a link/, name);
      const shown = await runHomectl(['skills', 'install', '--yes', dir], { socket: rig.homed.socket });
      assert.notEqual(shown.code, 0, name);
      assert.match(shown.stderr, /SKILL\.md is a link/, name);
    }
    assert.equal(fs.existsSync(rig.skillsDir) ? fs.readdirSync(rig.skillsDir).length : 0, 0, 'nothing was installed');
  });

  it('refuses a folder with a link leading out of it', async (t) => {
    const rig = await startSkillsRig(t);
    const dir = path.join(rig.scratch, 'leaky');
    const file = writeUnder(dir, 'SKILL.md', skillText('leaky'));
    fs.symlinkSync('/etc', path.join(dir, 'config'));
    await assert.rejects(
      rig.call(SkillsApi.Install, { dir, sha256: sha256(file) }),
      /config is a link to \/etc, outside the skill folder; such a folder is refused/,
    );
    assert.equal(fs.existsSync(path.join(rig.skillsDir, 'leaky')), false);
  });
});

describe('reading a skill folder by descriptor', () => {
  it('refuses a file reached through a folder that became a link leading out, and a file that became a fifo', (t) => {
    const root = fs.realpathSync(makeTempDir('skill-read-'));
    t.after(() => fs.rmSync(root, { recursive: true, force: true }));
    const skill = path.join(root, 'skill');
    writeUnder(skill, 'scripts/run.sh', 'echo inside\n');
    writeUnder(root, 'outside/run.sh', 'echo outside\n');
    assert.equal(readPlainFile(path.join(skill, 'scripts/run.sh'), 1024, skill).toString(), 'echo inside\n');
    // As if swapped after the listing: the folder on the path is now a link out of the skill.
    fs.rmSync(path.join(skill, 'scripts'), { recursive: true });
    fs.symlinkSync(path.join(root, 'outside'), path.join(skill, 'scripts'));
    assert.throws(
      () => readPlainFile(path.join(skill, 'scripts/run.sh'), 1024, skill),
      /was opened at .*outside\/run\.sh, outside the skill folder .*: a folder on its path is a link; the folder is refused/,
    );
    execFileSync('mkfifo', [path.join(skill, 'pipe')]);
    assert.throws(() => readPlainFile(path.join(skill, 'pipe'), 1024, skill), /pipe is not a plain file/);
  });
});
