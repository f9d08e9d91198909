// homectl skills list|info|check|enable|disable against a real homed whose openclaw plugin reads generated skills.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { SkillInfo, SkillsCheckResult, SkillsListResult } from '../../../protocol';
import { makeTempDir, waitFor } from '../../harness/homed';
import { startSkillsHomed, writeSkill, type SkillsHomed } from './skills-helpers';

/** A program no machine has. */
const ABSENT = 'homeagent-test-absent-tool';

describe('homectl skills list|info|check|enable|disable', () => {
  let h: SkillsHomed;
  let extra: string;
  const listJson = async (): Promise<SkillsListResult> => JSON.parse((await h.ctl('skills', 'list', '--json')).stdout) as SkillsListResult;

  before(async () => {
    h = await startSkillsHomed([
      { name: 'notes', description: 'Keeps short notes in a folder of plain text files, one file per day, searchable by date and word' },
      {
        name: 'tracker',
        description: 'Tracks parcels with a command-line tool',
        openclaw: {
          homepage: 'https://tracker.example.org',
          requires: { bins: [ABSENT], env: ['TRACKER_TOKEN'] },
          primaryEnv: 'TRACKER_TOKEN',
          install: [{ id: 'npm', kind: 'node', package: ABSENT, bins: [ABSENT] }],
        },
      },
    ]);
    // A SKILL.md whose frontmatter never ends.
    fs.mkdirSync(path.join(h.skillsDir, 'broken'));
    fs.writeFileSync(path.join(h.skillsDir, 'broken', 'SKILL.md'), '---\nname: broken\ndescription: never closed\n');
    extra = makeTempDir('skills-extra-');
    writeSkill(extra, { name: 'notes', description: 'An older notes skill' });
    await waitFor(async () => (await listJson()).total === 3, { what: 'the broken skill to be listed', timeoutMs: 10_000 });
  });
  after(async () => {
    await h?.cleanup();
    if (extra) fs.rmSync(extra, { recursive: true, force: true });
  });

  it('lists status with what is missing, name, description, source, and N/M ready; --json as answered; --eligible only the ready', async () => {
    const listed = await h.ctl('skills', 'list');
    assert.equal(listed.code, 0, listed.stderr);
    const lines = listed.stdout.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^STATUS\s+NAME\s+DESCRIPTION\s+SOURCE$/);
    assert.match(listed.stdout, /\nready\s+notes\s+Keeps short notes.*\s+data\n/);
    // A long status is cut in the table; info and check say it whole.
    assert.match(listed.stdout, /\nmissing \(bins: homeagent-test-\S*…\s+tracker\s+Tracks parcels/);
    assert.match(listed.stdout, /\nerror\s+broken\s+.*UNTERMINATED_FRONTMATTER/);
    assert.equal(lines.at(-1), '1/3 ready');
    for (const line of lines.slice(0, lines.indexOf('')))
      assert.ok([...line].length <= 100, `"${line}" is wider than the 100 columns homectl uses off a terminal`);

    const json = await listJson();
    assert.deepEqual(json.skills.map((s) => [s.name, s.status]).sort(), [
      ['broken', 'error'],
      ['notes', 'ready'],
      ['tracker', 'missing'],
    ]);
    assert.deepEqual(json.skills.find((s) => s.name === 'tracker')?.missing, { bins: [ABSENT], env: ['TRACKER_TOKEN'] });
    const eligible = JSON.parse((await h.ctl('skills', 'list', '--eligible', '--json')).stdout) as SkillsListResult;
    assert.deepEqual(
      eligible.skills.map((s) => s.name),
      ['notes'],
    );
  });

  it('shows one skill: requirements with ✓/✗, settings without values, install options with the setup hint', async () => {
    const shown = await h.ctl('skills', 'info', 'tracker');
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, new RegExp(`status\\s+missing \\(bins: ${ABSENT}; env: TRACKER_TOKEN\\)`));
    assert.match(shown.stdout, new RegExp(`path\\s+${h.skillsDir}/tracker/SKILL\\.md`));
    assert.match(shown.stdout, /homepage\s+https:\/\/tracker\.example\.org/);
    assert.match(shown.stdout, /primary env\s+TRACKER_TOKEN/);
    assert.match(shown.stdout, /settings\s+enabled; no env; api key not set/);
    assert.match(shown.stdout, new RegExp(`✗ bins ${ABSENT}\\n {2}✗ env TRACKER_TOKEN`));
    assert.match(shown.stdout, new RegExp(`install options \\(shown, never run by themselves\\):\\n {2}npm {2}gives ${ABSENT} {2}npm install -g ${ABSENT}`));
    assert.match(shown.stdout, /homectl skills setup tracker ID runs one/);
    const json = JSON.parse((await h.ctl('skills', 'info', 'tracker', '--json')).stdout) as SkillInfo;
    assert.deepEqual(
      json.checks.map((c) => [c.kind, c.name, c.ok]),
      [
        ['bins', ABSENT, false],
        ['env', 'TRACKER_TOKEN', false],
      ],
    );
  });

  it('says the api key is set once it is, never its value', async () => {
    const secret = 'tk-never-printed-1234';
    assert.equal((await h.ctl('config', 'set', 'openclaw:skills.tracker.api_key', secret)).code, 0);
    await waitFor(async () => (JSON.parse((await h.ctl('skills', 'info', 'tracker', '--json')).stdout) as SkillInfo).settings.apiKey, {
      what: 'the api key to count',
      timeoutMs: 10_000,
    });
    const shown = await h.ctl('skills', 'info', 'tracker');
    assert.match(shown.stdout, /api key set/);
    assert.match(shown.stdout, new RegExp(`missing \\(bins: ${ABSENT}\\)`), 'the api key stands for the primary env');
    const json = await h.ctl('skills', 'info', 'tracker', '--json');
    assert.ok(!shown.stdout.includes(secret) && !json.stdout.includes(secret));
  });

  it('answers an unknown name with how to see the names', async () => {
    const unknown = await h.ctl('skills', 'info', 'nope');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no skill named "nope".*homectl skills list/);
  });

  it('checks: totals by status, what each missing skill lacks, the unreadable ones with their path, and exits 1 for them', async () => {
    const checked = await h.ctl('skills', 'check');
    assert.equal(checked.code, 1, checked.stderr);
    assert.match(checked.stdout, /^1 ready, 1 missing, 0 disabled, 0 blocked, 1 error\n/);
    assert.match(checked.stdout, new RegExp(`missing:\\n {2}tracker {2}bins: ${ABSENT}`));
    assert.match(checked.stdout, new RegExp(`cannot be read \\(1 skill\\):\\n {2}broken {2}${h.skillsDir}/broken/SKILL\\.md\\n.*UNTERMINATED_FRONTMATTER`));
    assert.match(checked.stderr, new RegExp(`1 skill cannot be read: ${h.skillsDir}/broken/SKILL\\.md`));
    const json = await h.ctl('skills', 'check', '--json');
    assert.equal(json.code, 1);
    assert.deepEqual((JSON.parse(json.stdout) as SkillsCheckResult).totals, { ready: 1, missing: 1, disabled: 0, blocked: 0, error: 1 });

    fs.rmSync(path.join(h.skillsDir, 'broken'), { recursive: true });
    await waitFor(async () => (await h.ctl('skills', 'check')).code === 0, { what: 'check to pass once the broken skill is gone', timeoutMs: 10_000 });
  });

  it('disables and enables a skill', async () => {
    const disabled = await h.ctl('skills', 'disable', 'notes');
    assert.equal(disabled.code, 0, disabled.stderr);
    assert.equal(disabled.stdout.trim(), 'skill "notes" disabled: now disabled (openclaw:skills.notes.enabled)');
    assert.match((await h.ctl('skills', 'list')).stdout, /\ndisabled\s+notes\s+/);
    const enabled = await h.ctl('skills', 'enable', 'notes', '--json');
    assert.equal(enabled.code, 0, enabled.stderr);
    assert.deepEqual(JSON.parse(enabled.stdout), { name: 'notes', key: 'notes', status: 'ready' });
    assert.equal((await h.ctl('skills', 'disable', 'nope')).code, 1);
  });

  it('lists a skill an extra folder holds under the same name as shadowed, after the others', async () => {
    assert.equal((await h.ctl('config', 'set', 'openclaw:extra_dirs', JSON.stringify([extra]))).code, 0);
    await waitFor(async () => (await listJson()).shadowed.length === 1, { what: 'the extra notes to be shadowed', timeoutMs: 10_000 });
    const listed = await h.ctl('skills', 'list');
    assert.match(
      listed.stdout,
      new RegExp(
        `shadowed \\(a skill of the same name wins\\):\\nNAME\\s+SOURCE\\s+STATUS\\nnotes\\s+extra:${extra}\\s+shadowed by ${h.skillsDir}/notes/SKILL\\.md`,
      ),
    );
    const shown = await h.ctl('skills', 'info', 'notes');
    assert.match(shown.stdout, new RegExp(`shadows \\(same name, lower precedence\\):\\n {2}${extra}/notes/SKILL\\.md`));
  });

  it('says how to enable the openclaw plugin when it is disabled, this run and after a restart', async () => {
    assert.equal((await h.ctl('plugins', 'disable', 'openclaw')).code, 0);
    const listed = await h.ctl('skills', 'list');
    assert.equal(listed.code, 1);
    assert.match(listed.stderr, /skills\/list is not available: .*openclaw.* disabled; enable it with:? homectl plugins enable openclaw/);
    // Started disabled, the plugin never declared its methods this run: the kernel still names it (its manifest serves `skills`).
    await h.restart();
    const started = await h.ctl('skills', 'info', 'notes');
    assert.equal(started.code, 1);
    assert.match(started.stderr, /skills\/info is not available: .*openclaw.* disabled; enable it with:? homectl plugins enable openclaw/);
    assert.equal((await h.ctl('plugins', 'enable', 'openclaw')).code, 0);
    await waitFor(async () => (await h.ctl('skills', 'list')).code === 0, { what: 'skills to be served again', timeoutMs: 30_000 });
  });
});
