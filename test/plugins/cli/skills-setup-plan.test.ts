// The plan shown before `homectl skills setup` runs (the trust report is the openclaw plugin's: test/plugins/openclaw).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SkillInfo, SkillInstallOption } from '../../../protocol';
import { chooseInstallOption, renderSetupPlan, tailOf } from '../../../plugins/cli/commands/skills-setup';
import { UsageError } from '../../../plugins/cli/commands/types';

describe('skills setup', () => {
  const info = (install: SkillInfo['install']): SkillInfo => ({
    name: 'gh',
    description: '',
    status: 'missing',
    missing: { bins: ['gh'] },
    source: 'data',
    key: 'gh',
    userInvocable: true,
    modelInvocable: true,
    path: '/data/skills/gh/SKILL.md',
    checks: [],
    install,
    settings: { enabled: true, env: [], apiKey: false },
    warnings: [],
    shadows: [],
  });
  const brew = {
    id: 'brew',
    kind: 'brew',
    label: 'brew install gh',
    bins: ['gh'],
    applies: false,
    spec: { kind: 'brew', formula: 'gh' },
  } satisfies SkillInstallOption;
  const npm = {
    id: 'node',
    kind: 'node',
    label: 'npm install -g gh-cli',
    bins: ['gh'],
    applies: true,
    spec: { kind: 'node', package: 'gh-cli' },
  } satisfies SkillInstallOption;

  it('takes the named option, or the only one for this machine; names the choices otherwise', () => {
    assert.equal(chooseInstallOption(info([brew, npm]), 'brew').id, 'brew');
    assert.equal(chooseInstallOption(info([brew, npm]), undefined).id, 'node');
    assert.throws(
      () => chooseInstallOption(info([brew, npm]), 'pip'),
      (e: Error) => e instanceof UsageError && /no install option "pip"; it has brew, node/.test(e.message),
    );
    assert.throws(() => chooseInstallOption(info([npm, { ...npm, id: 'node-2' }]), undefined), /has 2 install options \(node, node-2\); name one/);
    assert.throws(() => chooseInstallOption(info([brew]), undefined), /no install option of skill "gh" is for this machine/);
    assert.throws(() => chooseInstallOption(info([]), undefined), /has no install spec to run/);
  });

  it('shows exactly what runs, the spec as written, and who it runs as', () => {
    const text = renderSetupPlan(info([npm]), npm);
    assert.match(text, /^skill "gh": missing \(bins: gh\)\ninstall option node \(node\):\n {2}runs: npm install -g gh-cli\n/);
    assert.match(text, / {4}package: gh-cli/);
    assert.match(text, /runs as the user homed runs as, with network access/);
    assert.match(renderSetupPlan(info([brew]), brew), /not for this machine/);
  });

  it('keeps the last lines of the output', () => {
    const output = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n');
    assert.equal(tailOf(output, 3), 'line 28\nline 29\nline 30');
    assert.equal(tailOf('one\n\n'), 'one');
  });
});
