import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as zlib from 'node:zlib';
import { test } from 'node:test';
import { DEFAULT_INSTALL_LIMITS, nameProblem, pathDepth, printable } from '../../../kernel/packages';
import { collisionKey } from '../../../kernel/packages/collisions';

test('names a plugin may use pass the path rules', () => {
  for (const name of [
    'plugin.json',
    'index.mjs',
    'lib/util.mjs',
    'assets/',
    'assets/icons/logo.png',
    'docs/日本語.md',
    'a b.txt',
    '.hidden',
    'v1.2.3/x',
    '名前/',
    `${'a'.repeat(255)}`,
  ]) {
    assert.equal(nameProblem(name, DEFAULT_INSTALL_LIMITS), undefined, name);
  }
});

test('each unsafe name is caught by its own rule', () => {
  const cases: [string, string][] = [
    ['', 'path.empty'],
    ['/', 'path.empty'],
    ['a\\b', 'path.backslash'],
    ['/etc/passwd', 'path.absolute'],
    ['c:/x', 'path.drive'],
    ['c:x', 'path.drive'],
    ['..', 'path.traversal'],
    ['a/../../b', 'path.traversal'],
    ['../', 'path.traversal'],
    ['./a', 'path.dot-segment'],
    ['a//b', 'path.empty-segment'],
    ['a\u0000b', 'path.control'],
    ['a\u001bb', 'path.control'],
    ['a\u0085b', 'path.control'],
    ['a\u200bb', 'path.control'],
    ['a\u2066b', 'path.control'],
    ['a\ufeffb', 'path.control'],
    ['a\ufffdb', 'path.encoding'],
    ['a|b', 'path.reserved-char'],
    ['a"b', 'path.reserved-char'],
    ['nul', 'path.reserved-name'],
    ['lib/Com1.txt', 'path.reserved-name'],
    ['lpt\u00b9', 'path.reserved-name'],
    ['a./b', 'path.trailing-dot-space'],
    ['a /b', 'path.trailing-dot-space'],
    ['e\u0301', 'path.not-nfc'],
    [`${'a'.repeat(256)}`, 'path.segment-length'],
    [`${'é'.repeat(128)}`, 'path.segment-length'],
    [`${Array.from({ length: 5 }, () => 'x'.repeat(205)).join('/')}`, 'path.length'],
  ];
  for (const [name, rule] of cases) assert.equal(nameProblem(name, DEFAULT_INSTALL_LIMITS)?.rule, rule, JSON.stringify(name));
});

test('depth counts the levels of a path, a folder without its trailing slash', () => {
  assert.equal(pathDepth('a.js'), 1);
  assert.equal(pathDepth('a/'), 1);
  assert.equal(pathDepth('a/b/c.js'), 3);
});

test('collision keys fold case and Unicode normalisation, and a folder meets the file of its name', () => {
  assert.equal(collisionKey('caf\u00e9.js'), collisionKey('cafe\u0301.js'));
  assert.equal(collisionKey('README.md'), collisionKey('readme.MD'));
  assert.equal(collisionKey('straße'), collisionKey('STRASSE'));
  assert.equal(collisionKey('\u212a'), collisionKey('k'), 'the Kelvin sign');
  assert.equal(collisionKey('lib/'), collisionKey('lib'));
  assert.notEqual(collisionKey('a.js'), collisionKey('b.js'));
});

test('printable escapes what would hide or rearrange a name, and shortens long ones', () => {
  assert.equal(printable('a\u0000b\nc'), 'a\\x00b\\x0ac');
  assert.equal(printable('x\u202Egnp.js'), 'x\\u{202e}gnp.js');
  assert.equal(printable('say "hi"\\'), 'say \\"hi\\"\\\\');
  assert.equal(printable('日本語'), '日本語');
  assert.equal(printable('a'.repeat(500)).length, 161);
});

test('zlib.crc32 is the ZIP CRC-32 (the standard check value) and continues across chunks as entry-data.ts feeds it', () => {
  assert.equal(zlib.crc32(Buffer.from('123456789')), 0xcbf43926);
  const data = randomBytes(100_000);
  assert.equal(zlib.crc32(data.subarray(40_000), zlib.crc32(data.subarray(0, 40_000))), zlib.crc32(data));
});
