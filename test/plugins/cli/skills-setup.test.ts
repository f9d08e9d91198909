// homectl skills setup end to end: a skill missing a program, a stub npm first on homed's PATH that records how it
// was run and puts the program there; nothing runs without the second confirmation, --yes runs exactly the option.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { SkillInfo, SkillsSetupResult } from '../../../protocol';
import { HOMECTL_MAIN, waitFor } from '../../harness/homed';
import { TmuxPane, tmuxAvailable } from '../../harness/tmux';
import { startSkillsHomed, writeProgram, type SkillsHomed } from './skills-helpers';

/** The program the skill needs, which the stub npm "installs". */
const TOOL = 'homeagent-test-parcel';

describe('homectl skills setup against a running homed', () => {
  let h: SkillsHomed;
  let record: string;
  const status = async (): Promise<string> => (JSON.parse((await h.ctl('skills', 'info', 'parcel', '--json')).stdout) as SkillInfo).status;

  before(async () => {
    h = await startSkillsHomed([
      {
        name: 'parcel',
        description: 'Tracks parcels',
        openclaw: {
          requires: { bins: [TOOL] },
          install: [
            { id: 'parcel-npm', kind: 'node', package: TOOL, bins: [TOOL] },
            { id: 'parcel-brew', kind: 'brew', formula: TOOL, bins: [TOOL], os: ['darwin'] },
          ],
        },
      },
    ]);
    record = path.join(path.dirname(h.bin), `${path.basename(h.bin)}.npm-argv`);
    // One line of arguments per run; the program lands beside it, in the folder homed's PATH starts with.
    writeProgram(
      h.bin,
      'npm',
      `printf '%s\\n' "$*" >> '${record}'\nprintf '#!/bin/sh\\necho parcel\\n' > '${h.bin}/${TOOL}'\nchmod +x '${h.bin}/${TOOL}'\necho "added 1 package"`,
    );
  });
  after(async () => {
    await h?.cleanup();
    if (record) fs.rmSync(record, { force: true });
  });

  it('shows exactly what runs and refuses without the second confirmation: npm never runs', async () => {
    const asked = await h.ctl('skills', 'setup', 'parcel');
    assert.equal(asked.code, 2, asked.stderr);
    assert.match(
      asked.stdout,
      /^skill "parcel": missing \(bins: homeagent-test-parcel\)\ninstall option parcel-npm \(node\):\n {2}runs: npm install -g homeagent-test-parcel\n/,
    );
    assert.match(asked.stdout, /runs as the user homed runs as, with network access/);
    assert.match(asked.stderr, /nothing was run: .*no terminal to ask on; pass --yes/);
    const json = await h.ctl('skills', 'setup', 'parcel', 'parcel-npm', '--json');
    assert.equal(json.code, 2);
    assert.ok(!fs.existsSync(record), 'npm must not have run');
    assert.equal(await status(), 'missing');
  });

  it(
    'asks in a terminal even after the plan was shown; no runs nothing',
    { skip: tmuxAvailable() ? false : 'tmux is not installed (apt-get install -y tmux)' },
    async (t) => {
      const pane = TmuxPane.start([process.execPath, HOMECTL_MAIN, '-data', h.homed.dataDir, 'skills', 'setup', 'parcel', 'parcel-npm']);
      t.after(() => pane.close());
      await pane.waitForScreen(/runs: npm install -g homeagent-test-parcel[\s\S]*Run it\? \[y\/N\]/, 'the second question');
      pane.type('n');
      pane.press('Enter');
      await pane.waitForScreen(/not run\n\[exit 0\]/, 'the refusal');
      assert.ok(!fs.existsSync(record), 'npm must not have run');
    },
  );

  it('names the options when asked for one that does not exist', async () => {
    const wrong = await h.ctl('skills', 'setup', 'parcel', 'pip');
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /no install option "pip"; it has parcel-npm, parcel-brew/);
    assert.ok(!fs.existsSync(record));
  });

  it('runs the option with --yes, prints the output tail and the status after', async () => {
    const ran = await h.ctl('skills', 'setup', 'parcel', 'parcel-npm', '--yes');
    assert.equal(ran.code, 0, ran.stderr);
    assert.deepEqual(fs.readFileSync(record, 'utf8').trim().split('\n'), [`install -g ${TOOL}`]);
    assert.match(ran.stdout, /ran: npm install -g homeagent-test-parcel\nexit code 0\n {2}\| added 1 package\n/);
    assert.match(ran.stdout, /skill "parcel" is now (ready|missing)$/m);
    await waitFor(async () => (await status()) === 'ready', { what: 'the skill to be ready once its program is on PATH', timeoutMs: 10_000 });
  });

  it('exits 1 when the command fails, after printing its output', async () => {
    writeProgram(h.bin, 'npm', `printf '%s\\n' "$*" >> '${record}'\necho "npm ERR! 404 not found" >&2\nexit 3`);
    const ran = await h.ctl('skills', 'setup', 'parcel', 'parcel-npm', '--yes', '--json');
    assert.equal(ran.code, 1, ran.stderr);
    const answer = JSON.parse(ran.stdout) as SkillsSetupResult;
    assert.equal(answer.exitCode, 3);
    assert.match(answer.output, /npm ERR! 404/);
    assert.match(ran.stderr, /npm install -g homeagent-test-parcel failed with exit code 3/);
    assert.equal(fs.readFileSync(record, 'utf8').trim().split('\n').length, 2);
  });
});
