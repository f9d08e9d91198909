// The SKILL.md rules one by one, on generated files: delimiting, YAML with its retry, normalisation, defaults.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSkill } from '../../../../plugins/openclaw/skills/parse';
import type { SkillFile } from '../../../../plugins/openclaw/skills/types';

function parsed(text: string, folder = 'folder-name'): SkillFile {
  const result = parseSkill(text, folder);
  assert.ok(result.ok, result.ok ? '' : result.message);
  return result.skill;
}

function rejected(text: string): { code: string; message: string } {
  const result = parseSkill(text, 'folder-name');
  assert.ok(!result.ok, 'the file is rejected');
  return result;
}

test('a BOM is stripped before the opening line', () => {
  const skill = parsed('\uFEFF---\nname: bom\ndescription: Has a BOM\n---\n# Body\n');
  assert.equal(skill.name, 'bom');
  assert.equal(skill.description, 'Has a BOM');
  assert.equal(skill.body, '# Body\n');
});

test('CRLF and lone CR line endings read as LF', () => {
  const crlf = parsed('---\r\nname: crlf\r\ndescription: Windows lines\r\n---\r\nline one\r\nline two\r\n');
  assert.equal(crlf.description, 'Windows lines');
  assert.equal(crlf.body, 'line one\nline two\n');
  const cr = parsed('---\rname: cr\rdescription: Old Mac lines\r---\rbody\r');
  assert.equal(cr.name, 'cr');
  assert.equal(cr.body, 'body\n');
});

test('the opening line may carry trailing blanks; the closing line must be exactly ---', () => {
  const skill = parsed('--- \t\ndescription: spaced opening\n---\nbody\n');
  assert.equal(skill.description, 'spaced opening');
  assert.equal(skill.bodyLine, 4);
  // "--- " does not close the block, so YAML sees it inside as a second document.
  assert.equal(rejected('---\ndescription: d\n--- \nmore: x\n---\nbody\n').code, 'MULTIPLE_DOCS');
  assert.equal(rejected('---\ndescription: d\n --- \n').code, 'UNTERMINATED_FRONTMATTER');
});

test('a frontmatter with no closing line is UNTERMINATED_FRONTMATTER', () => {
  const result = rejected('---\nname: open\ndescription: never closed\n# Body\n');
  assert.equal(result.code, 'UNTERMINATED_FRONTMATTER');
  assert.match(result.message, /^invalid frontmatter: UNTERMINATED_FRONTMATTER: .*"---"/);
});

test('a description holding ": " is read after the one retry that quotes it', () => {
  const skill = parsed('---\nname: colon\ndescription: Use when: the user asks about weather\nhomepage: https://example.com\n---\nbody\n');
  assert.equal(skill.description, 'Use when: the user asks about weather');
  assert.equal(skill.homepage, 'https://example.com');
  const summary = parsed('---\ndescription: plain\nsummary: Note: short\nread_when: Ask: always\n---\n');
  assert.equal(summary.frontmatter['summary'], 'Note: short');
  assert.equal(summary.frontmatter['read_when'], 'Ask: always');
});

test('YAML that is still wrong after the retry is rejected with its code', () => {
  const result = rejected('---\nname: bad\ndescription: fine\nmetadata: [unclosed\n---\n');
  assert.match(result.message, /^invalid frontmatter: [A-Z_]+: /);
  const duplicate = rejected('---\ndescription: one\ndescription: two\n---\n');
  assert.equal(duplicate.code, 'DUPLICATE_KEY');
  const colonElsewhere = rejected('---\ndescription: ok\nlicense: MIT: or not\n---\n');
  assert.equal(colonElsewhere.code, 'BLOCK_AS_IMPLICIT_KEY', 'only description, summary and read_when are retried');
});

test('values are normalised: strings trimmed, numbers and booleans as strings, objects as JSON', () => {
  const skill = parsed('---\ndescription: "  padded  "\nversion: 1.50\nflag: true\nlist: [a, b]\nmap:\n  k: v\n---\n');
  assert.equal(skill.description, 'padded');
  assert.equal(skill.frontmatter['version'], '1.5');
  assert.equal(skill.frontmatter['flag'], 'true');
  assert.equal(skill.frontmatter['list'], '["a","b"]');
  assert.equal(skill.frontmatter['map'], '{"k":"v"}');
});

test('the core schema: yes/no and octal-looking words stay strings, not booleans', () => {
  const skill = parsed('---\ndescription: d\nuser-invocable: no\nanswer: yes\n---\n');
  assert.equal(skill.frontmatter['answer'], 'yes');
  assert.equal(skill.userInvocable, false, 'OpenClaw reads "no" as false');
});

test('the line reading fills in a key YAML gave no value', () => {
  const skill = parsed('---\ndescription: d\nlicense: ~\n---\n');
  assert.equal(skill.frontmatter['license'], '~', 'YAML reads ~ as null; the line reading keeps the text');
  assert.equal(skill.license, '~');
});

test('name defaults to the folder name; description is required', () => {
  assert.equal(parsed('---\ndescription: nameless\n---\n', 'my-folder').name, 'my-folder');
  assert.equal(parsed('---\nname: ""\ndescription: blank name\n---\n', 'my-folder').name, 'my-folder');
  assert.equal(rejected('---\nname: x\n---\nbody').code, 'MISSING_DESCRIPTION');
  assert.match(rejected('# no frontmatter at all\n').message, /no frontmatter/);
  assert.equal(rejected('---\ndescription: "   "\n---\n').code, 'MISSING_DESCRIPTION');
  assert.equal(rejected('---\n- a\n- b\n---\n').code, 'NOT_A_MAPPING');
});

test('the other top-level keys and their defaults', () => {
  const plain = parsed('---\ndescription: d\n---\n');
  assert.equal(plain.userInvocable, true);
  assert.equal(plain.disableModelInvocation, false);
  assert.equal(plain.homepage, undefined);
  const full = parsed(
    '---\ndescription: d\nhomepage: https://h.example\nuser-invocable: false\ndisable-model-invocation: true\n' +
      'command-dispatch: tool\ncommand-tool: exec\ncommand-arg-mode: raw\nlicense: MIT\nallowed-tools: Bash Read\n---\n',
  );
  assert.deepEqual(
    [
      full.homepage,
      full.userInvocable,
      full.disableModelInvocation,
      full.commandDispatch,
      full.commandTool,
      full.commandArgMode,
      full.license,
      full.allowedTools,
    ],
    ['https://h.example', false, true, 'tool', 'exec', 'raw', 'MIT', 'Bash Read'],
  );
  assert.equal(parsed('---\ndescription: d\nuser-invocable: maybe\n---\n').userInvocable, true, 'an unknown word keeps the default');
});

test('the body starts after the closing line, with its line number in the file', () => {
  const skill = parsed('---\nname: n\ndescription: d\n---\n\n# Title\n');
  assert.equal(skill.bodyLine, 5);
  assert.equal(skill.body, '\n# Title\n');
});
