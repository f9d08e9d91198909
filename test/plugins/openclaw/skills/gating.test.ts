// Gating against a controlled PATH, environment, settings and config: each requirement kind, os, always,
// the owner's switch and the agent's allow-list.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test, type TestContext } from 'node:test';
import { describeStatus, gateSkill, type GateContext, type SkillSettings } from '../../../../plugins/openclaw/skills/gating';
import { parseSkill } from '../../../../plugins/openclaw/skills/parse';
import type { SkillFile } from '../../../../plugins/openclaw/skills/types';

function skillWith(openclaw: object, name = 'gated'): SkillFile {
  const result = parseSkill(`---\nname: ${name}\ndescription: d\nmetadata: '${JSON.stringify({ openclaw })}'\n---\n`, name);
  assert.ok(result.ok, result.ok ? '' : result.message);
  return result.skill;
}

function binDir(t: TestContext): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-bin-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function stubBin(dir: string, name: string, mode = 0o755): void {
  fs.writeFileSync(path.join(dir, name), '#!/bin/sh\nexit 0\n', { mode });
}

function context(pathValue: string, extra: Partial<GateContext> = {}): GateContext {
  return { platform: 'linux', pathValue, env: {}, settings: () => undefined, config: () => undefined, ...extra };
}

test('a missing bin is missing (bins: X) and ready once a stub X is on PATH', (t) => {
  const dir = binDir(t);
  const skill = skillWith({ requires: { bins: ['skilltool-x', 'skilltool-y'] } });
  stubBin(dir, 'skilltool-y');
  assert.equal(describeStatus(gateSkill(skill, context(dir))), 'missing (bins: skilltool-x)');
  stubBin(dir, 'skilltool-x');
  const ready = gateSkill(skill, context(dir));
  assert.equal(describeStatus(ready), 'ready');
  assert.ok(ready.status !== 'error');
  assert.deepEqual(ready.checks, [
    { kind: 'bins', name: 'skilltool-x', ok: true },
    { kind: 'bins', name: 'skilltool-y', ok: true },
  ]);
});

test('a bin must be an executable file: no x bit, a folder or a path do not count', (t) => {
  const dir = binDir(t);
  stubBin(dir, 'not-exec', 0o644);
  fs.mkdirSync(path.join(dir, 'a-folder'));
  stubBin(dir, 'real');
  const skill = skillWith({ requires: { bins: ['not-exec', 'a-folder', `../${path.basename(dir)}/real`] } });
  const status = gateSkill(skill, context(`${path.join(dir, 'absent')}${path.delimiter}${dir}`));
  assert.equal(describeStatus(status), `missing (bins: not-exec, a-folder, ../${path.basename(dir)}/real)`);
});

test('anyBins needs one of its bins', (t) => {
  const dir = binDir(t);
  const skill = skillWith({ requires: { anyBins: ['claude-x', 'codex-x'] } });
  assert.equal(describeStatus(gateSkill(skill, context(dir))), 'missing (anyBins: claude-x|codex-x)');
  stubBin(dir, 'codex-x');
  assert.equal(gateSkill(skill, context(dir)).status, 'ready');
});

test('env is met by the environment, the skill settings env, or its apiKey for primaryEnv', () => {
  const skill = skillWith({ primaryEnv: 'API_TOKEN', requires: { env: ['API_TOKEN', 'REGION'] } });
  const gate = (env: Record<string, string>, settings?: SkillSettings): string =>
    describeStatus(gateSkill(skill, context('', { env, settings: (key) => (key === 'gated' ? settings : undefined) })));
  assert.equal(gate({}), 'missing (env: API_TOKEN, REGION)');
  assert.equal(gate({ API_TOKEN: '', REGION: 'eu' }), 'missing (env: API_TOKEN)', 'an empty variable is not set');
  assert.equal(gate({ REGION: 'eu' }, { apiKey: 'secret' }), 'ready');
  assert.equal(gate({}, { env: { API_TOKEN: 't', REGION: 'eu' } }), 'ready');
  assert.equal(gate({ API_TOKEN: 't' }, { apiKey: 'secret' }), 'missing (env: REGION)', 'apiKey stands for primaryEnv only');
});

test('settings are looked up by skillKey when the metadata gives one', () => {
  const skill = skillWith({ skillKey: 'custom-key', requires: { env: ['K'] } });
  const settings = (key: string): SkillSettings | undefined => (key === 'custom-key' ? { env: { K: 'v' } } : undefined);
  assert.equal(gateSkill(skill, context('', { settings })).status, 'ready');
});

test('config paths must be truthy', () => {
  const skill = skillWith({ requires: { config: ['a.on', 'b.name'] } });
  const values: Record<string, unknown> = { 'a.on': true, 'b.name': '  ' };
  assert.equal(describeStatus(gateSkill(skill, context('', { config: (p) => values[p] }))), 'missing (config: b.name)');
  values['b.name'] = 'x';
  assert.equal(gateSkill(skill, context('', { config: (p) => values[p] })).status, 'ready');
  values['a.on'] = 0;
  assert.equal(describeStatus(gateSkill(skill, context('', { config: (p) => values[p] }))), 'missing (config: a.on)');
});

test('os is a hard filter, even for always skills', () => {
  const mac = skillWith({ os: ['darwin'], requires: { bins: ['never-there-bin'] } });
  assert.equal(describeStatus(gateSkill(mac, context(''))), 'missing (os: darwin; bins: never-there-bin)');
  const macAlways = skillWith({ os: ['darwin'], always: true, requires: { bins: ['never-there-bin'] } });
  assert.equal(describeStatus(gateSkill(macAlways, context(''))), 'missing (os: darwin)');
  assert.equal(gateSkill(macAlways, context('', { platform: 'darwin' })).status, 'ready');
  assert.equal(gateSkill(skillWith({ os: ['darwin', 'linux'] }), context('')).status, 'ready');
});

test('always skips every requires check', () => {
  const skill = skillWith({ always: true, requires: { bins: ['never-there-bin'], anyBins: ['nope-a'], env: ['NOPE'], config: ['no.such'] } });
  const status = gateSkill(skill, context(''));
  assert.equal(status.status, 'ready');
  assert.ok(status.status === 'ready' && status.checks.every((check) => !check.ok), 'the checks still say what is absent');
});

test('disabled by the owner and blocked for the agent come before requirements', () => {
  const skill = skillWith({ requires: { bins: ['never-there-bin'] } });
  assert.equal(gateSkill(skill, context('', { settings: () => ({ enabled: false }) })).status, 'disabled');
  assert.equal(gateSkill(skill, context('', { allowed: (s) => s.name !== 'gated' })).status, 'blocked');
  assert.equal(gateSkill(skill, context('', { settings: () => ({ enabled: true }) })).status, 'missing');
});

test('a skill with no metadata is ready', () => {
  const result = parseSkill('---\ndescription: plain\n---\n', 'plain');
  assert.ok(result.ok);
  assert.deepEqual(gateSkill(result.skill, context('')), { status: 'ready', checks: [] });
});
