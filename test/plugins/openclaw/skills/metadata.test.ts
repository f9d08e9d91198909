// Skill metadata on generated files: JSON then JSON5, the clawdbot alias, loose lists, and install entries kept or dropped.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSkill } from '../../../../plugins/openclaw/skills/parse';
import type { SkillFile, SkillMetadata } from '../../../../plugins/openclaw/skills/types';

function withMetadata(metadata: string): SkillFile {
  const result = parseSkill(`---\nname: m\ndescription: d\nmetadata: ${metadata}\n---\nbody\n`, 'm');
  assert.ok(result.ok, result.ok ? '' : result.message);
  return result.skill;
}

function metadataOf(metadata: string): SkillMetadata {
  const skill = withMetadata(metadata);
  assert.ok(skill.metadata, `metadata read from ${metadata}`);
  return skill.metadata;
}

function installOf(entries: unknown[]): { kept: unknown[]; warnings: string[] } {
  const skill = withMetadata(`'${JSON.stringify({ openclaw: { install: entries } })}'`);
  return { kept: skill.metadata?.install ?? [], warnings: skill.warnings };
}

test('metadata written as a YAML mapping reaches the reader as JSON', () => {
  const metadata = metadataOf('\n  openclaw:\n    emoji: "x"\n    requires:\n      bins: [jq]');
  assert.equal(metadata.emoji, 'x');
  assert.deepEqual(metadata.requires.bins, ['jq']);
});

test('metadata that is JSON5 but not JSON (single quotes, bare keys, comments) is read', () => {
  const skill = parseSkill("---\ndescription: d\nmetadata: |\n  { openclaw: { emoji: 'e', /* note */ requires: { bins: ['a',], }, }, }\n---\n", 'j');
  assert.ok(skill.ok);
  assert.equal(skill.skill.metadata?.emoji, 'e');
  assert.deepEqual(skill.skill.metadata?.requires.bins, ['a']);
});

test('metadata that is neither JSON nor JSON5 is ignored with a warning', () => {
  const skill = withMetadata("'{ openclaw: '");
  assert.equal(skill.metadata, undefined);
  assert.match(skill.warnings.join('\n'), /neither JSON nor JSON5/);
});

test('the legacy clawdbot block is read when there is no openclaw block; openclaw wins when both are there', () => {
  const legacy = metadataOf('{ "clawdbot": { "emoji": "old", "requires": { "env": ["TOKEN"] } } }');
  assert.equal(legacy.key, 'clawdbot');
  assert.deepEqual(legacy.requires.env, ['TOKEN']);
  const both = metadataOf('{ "clawdbot": { "emoji": "old" }, "openclaw": { "emoji": "new" } }');
  assert.equal(both.key, 'openclaw');
  assert.equal(both.emoji, 'new');
  assert.equal(withMetadata('{ "other": { "emoji": "x" } }').metadata, undefined);
});

test('requires lists are CSV strings or arrays, trimmed, blanks dropped', () => {
  const metadata = metadataOf(
    '{ "openclaw": { "requires": { "bins": "git, gh ,,jq", "anyBins": ["a", " b ", ""], "env": "TOKEN", "config": ["x.y"] }, "os": "linux, darwin" } }',
  );
  assert.deepEqual(metadata.requires, { bins: ['git', 'gh', 'jq'], anyBins: ['a', 'b'], env: ['TOKEN'], config: ['x.y'] });
  assert.deepEqual(metadata.os, ['linux', 'darwin']);
});

test('scalar fields: always only as a boolean, strings trimmed, unknown keys ignored', () => {
  const metadata = metadataOf('{ "openclaw": { "always": true, "emoji": " e ", "homepage": "https://h", "primaryEnv": "KEY", "skillKey": "k", "novel": 1 } }');
  assert.deepEqual(
    { always: metadata.always, emoji: metadata.emoji, homepage: metadata.homepage, primaryEnv: metadata.primaryEnv, skillKey: metadata.skillKey },
    { always: true, emoji: 'e', homepage: 'https://h', primaryEnv: 'KEY', skillKey: 'k' },
  );
  assert.equal(metadataOf('{ "openclaw": { "always": "true" } }').always, undefined);
});

test('install entries: kind or type, each kind with the field it needs', () => {
  const { kept, warnings } = installOf([
    { type: 'BREW', formula: 'jq', bins: 'jq' },
    { kind: 'brew', cask: 'firefox' },
    { kind: 'node', package: '@scope/tool@^1.2.0' },
    { kind: 'go', module: 'example.com/x/cmd/y@v1.0.0' },
    { kind: 'uv', package: 'ruff>=0.5' },
    {
      kind: 'download',
      url: 'https://example.com/a.tar.gz',
      sha256: 'AB'.repeat(32),
      stripComponents: 1,
      extract: true,
      targetDir: 'bin',
      archive: 'tar.gz',
      os: ['linux'],
      extra: 'ignored',
    },
  ]);
  assert.deepEqual(kept, [
    { kind: 'brew', bins: ['jq'], formula: 'jq' },
    { kind: 'brew', cask: 'firefox' },
    { kind: 'node', package: '@scope/tool@^1.2.0' },
    { kind: 'go', module: 'example.com/x/cmd/y@v1.0.0' },
    { kind: 'uv', package: 'ruff>=0.5' },
    {
      kind: 'download',
      url: 'https://example.com/a.tar.gz',
      sha256: 'ab'.repeat(32),
      stripComponents: 1,
      extract: true,
      targetDir: 'bin',
      archive: 'tar.gz',
      os: ['linux'],
    },
  ]);
  assert.deepEqual(warnings, []);
});

test('bad install entries are dropped, each with the reason', () => {
  const bad: [unknown, RegExp][] = [
    [{ kind: 'apt', package: 'jq' }, /kind "apt"/],
    ['brew jq', /not an object/],
    [{ kind: 'brew' }, /formula or cask/],
    [{ kind: 'brew', formula: '--HEAD' }, /formula or cask/],
    [{ kind: 'brew', formula: '../evil' }, /formula or cask/],
    [{ kind: 'node', package: '-g evil' }, /npm package/],
    [{ kind: 'node', package: 'git+https://example.com/x.git' }, /npm package/],
    [{ kind: 'node', package: 'a b' }, /npm package/],
    [{ kind: 'go', module: 'https://example.com/mod' }, /module/],
    [{ kind: 'go', module: 'example.com\\mod' }, /module/],
    [{ kind: 'uv', package: 'file://x' }, /package/],
    [{ kind: 'download', url: 'ftp://example.com/a.tgz' }, /http\(s\) url/],
    [{ kind: 'download', url: 'file:///etc/passwd' }, /http\(s\) url/],
    [{ kind: 'download', url: 'not a url' }, /http\(s\) url/],
    [{ kind: 'download', url: 'https://example.com/a', sha256: 'abc' }, /sha256/],
    [{ kind: 'download', url: 'https://example.com/a', sha256: 'g'.repeat(64) }, /sha256/],
  ];
  const { kept, warnings } = installOf([...bad.map(([entry]) => entry), { kind: 'go', module: 'example.com/ok' }]);
  assert.deepEqual(kept, [{ kind: 'go', module: 'example.com/ok' }]);
  assert.equal(warnings.length, bad.length);
  bad.forEach(([, reason], index) => assert.match(warnings[index] ?? '', new RegExp(`^install\\[${index}\\] is dropped: .*${reason.source}`)));
});
