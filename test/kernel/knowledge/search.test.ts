import assert from 'node:assert/strict';
import test from 'node:test';
import { filesFor, makeScratch, openBase } from './helpers';

const ENGLISH = `# Coffee machine CM-200

## Descaling
Descale the coffee machine every three months. Dissolve citric acid in a full tank of water and run the
descaling programme; then rinse with two tanks of clean water.

## Grinder
Set the grind size with the dial on the bean hopper. Finer grinding makes stronger espresso.
`;

const CHINESE = `# 咖啡机使用说明

## 除垢
每三个月为咖啡机除垢一次：把柠檬酸溶解在满水箱的水中，运行除垢程序，然后用两箱清水冲洗。

## 研磨
用豆仓上的旋钮调节研磨粗细，研磨越细，咖啡越浓。
`;

const ROUTER = `# Router

## Reset
Hold the reset button for ten seconds until the lights blink. The router restarts with factory settings.

## 无线网络
路由器的无线网络名称和密码印在底部的标签上。
`;

test('English and Chinese documents are found by questions in their language', async (t) => {
  const scratch = makeScratch();
  t.after(() => scratch.remove());
  scratch.write('coffee/manual.md', ENGLISH);
  scratch.write('coffee/说明书.md', CHINESE);
  scratch.write('router.md', ROUTER);
  const base = await openBase(scratch);
  t.after(() => base.close());

  const english = base.search('how do I descale the coffee machine?');
  assert.equal(english[0]?.file, 'coffee/manual.md');
  assert.equal(english[0]?.heading, 'Coffee machine CM-200 > Descaling');
  assert.match(english[0]!.text, /citric acid/);
  assert.equal(english[0]?.line, 4);
  assert.ok(english[0]!.score > 0 && typeof english[0]!.chunk === 'string' && english[0]!.chunk.length > 0);

  assert.deepEqual(
    base.search('除垢').map((h) => [h.file, h.heading]),
    [['coffee/说明书.md', '咖啡机使用说明 > 除垢']],
  );
  assert.equal(base.search('咖啡机怎么除垢？')[0]?.heading, '咖啡机使用说明 > 除垢');
  assert.equal(base.search('无线网络的密码在哪里')[0]?.file, 'router.md');
  assert.equal(base.search('垢')[0]?.heading, '咖啡机使用说明 > 除垢', 'a one-character CJK query matches the bigrams it starts');
  assert.deepEqual(base.search('the of and'), [], 'a query of stopwords finds nothing');
  assert.deepEqual(base.search('zebra giraffe'), []);
});

test('longer Latin words match by prefix and with a typo; short words and CJK bigrams only exactly', async (t) => {
  const scratch = makeScratch();
  t.after(() => scratch.remove());
  scratch.write('coffee/manual.md', ENGLISH);
  scratch.write('coffee/说明书.md', CHINESE);
  const base = await openBase(scratch);
  t.after(() => base.close());

  assert.equal(base.search('descal')[0]?.heading, 'Coffee machine CM-200 > Descaling', 'prefix');
  assert.equal(base.search('espreso')[0]?.heading, 'Coffee machine CM-200 > Grinder', 'one typo in a long word');
  assert.deepEqual(base.search('dia'), [], 'a three-letter word is not a prefix of "dial"');
  assert.deepEqual(base.search('除尘'), [], 'a CJK bigram has no fuzzy neighbours');
});

test('the file name and heading weigh more than the body', async (t) => {
  const scratch = makeScratch();
  t.after(() => scratch.remove());
  scratch.write('notes.md', '# Notes\n\nThe thermostat in the hall was replaced last winter; the boiler manual has its settings.\n');
  scratch.write('boiler.md', '# Settings\n\nWater temperature 60 degrees, eco mode at night.\n');
  scratch.write('misc.md', '# Thermostat\n\nThe one in the hall.\n');
  const base = await openBase(scratch);
  t.after(() => base.close());
  assert.deepEqual(filesFor(base, 'boiler', 2), ['boiler.md', 'notes.md'], 'a match in the file name ranks first');
  assert.equal(filesFor(base, 'thermostat', 1)[0], 'misc.md', 'a match in the heading ranks first');
  assert.equal(base.search('boiler', { limit: 1 }).length, 1, 'limit is honoured');
});
