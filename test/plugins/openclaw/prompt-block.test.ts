// The skills block within its budget, counted as the kernel counts it: whole when it fits, descriptions cut to one
// length when not (the longest that fits), then only the skills that fit and a line counting the rest.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BLOCK_HEADER, MIN_DESCRIPTION, buildPromptBlock, moreLine, type BlockSkill } from '../../../plugins/openclaw/prompt-block';
import { estimateTokens } from '../../../protocol/tokens';

const skills = (count: number, description: (i: number) => string): BlockSkill[] =>
  Array.from({ length: count }, (_, i) => ({ name: `skill-${String(i).padStart(3, '0')}`, description: description(i) }));

const descriptionsOf = (text: string): string[] =>
  text
    .split('\n')
    .slice(1)
    .filter((line) => line.startsWith('- '))
    .map((line) => line.slice(line.indexOf(': ') + 2));

test('a block that fits is the header and one line per skill, in name order, descriptions on one line', () => {
  const block = buildPromptBlock(
    [
      { name: 'weather', description: 'Forecasts\n  and  current weather' },
      { name: 'github', description: 'Issues and PRs' },
    ],
    1500,
  );
  assert.equal(block.text, `${BLOCK_HEADER}\n- github: Issues and PRs\n- weather: Forecasts and current weather`);
  assert.deepEqual([block.tokens, block.listed, block.cut], [estimateTokens(block.text), 2, false]);
  assert.deepEqual(buildPromptBlock([], 1500), { text: '', tokens: 0, listed: 0, cut: false });
});

test('over the budget, every description is cut to the longest common length that fits', () => {
  const long = skills(30, (i) => `Skill ${i} does many things `.repeat(8).trim());
  const full = buildPromptBlock(long, 100_000);
  const budget = Math.floor(full.tokens * 0.6);
  const block = buildPromptBlock(long, budget);
  assert.equal(block.listed, 30);
  assert.equal(block.cut, true);
  assert.ok(block.tokens <= budget, `${block.tokens} <= ${budget}`);
  // One more character per description would cost at most 30 characters, about 8 tokens: it was the longest cut.
  assert.ok(block.tokens > budget - 10, `${block.tokens} is close to ${budget}`);
  const cut = descriptionsOf(block.text);
  assert.ok(
    cut.every((text) => text.endsWith('…') && text.length >= MIN_DESCRIPTION),
    cut[0],
  );
  assert.ok(cut.every((text, i) => long[i]?.description.startsWith(text.slice(0, -1).trim())));
});

test('far over the budget, the skills that fit are listed and a last line counts the others', () => {
  const many = skills(500, (i) => `Skill number ${i}, which handles a realistic kind of task described in a sentence or two of text.`);
  const block = buildPromptBlock(many, 1500);
  assert.ok(block.tokens <= 1500, String(block.tokens));
  assert.ok(block.listed > 20 && block.listed < 500, String(block.listed));
  const lines = block.text.split('\n');
  assert.equal(lines.at(-1), moreLine(500 - block.listed));
  assert.equal(lines.length, block.listed + 2);
  assert.ok(descriptionsOf(block.text).every((text) => text.length <= MIN_DESCRIPTION));
  const oneMore = buildPromptBlock(many, block.tokens + 8);
  assert.ok(oneMore.listed >= block.listed);
});

test('CJK descriptions count a token a character, as the kernel counts them', () => {
  const chinese = skills(40, () => '查询天气预报和当前的天气情况，支持全国主要城市，并给出穿衣与出行的建议。');
  const block = buildPromptBlock(chinese, 600);
  assert.ok(block.tokens <= 600 && block.tokens === estimateTokens(block.text), String(block.tokens));
  assert.ok(block.cut);
});
