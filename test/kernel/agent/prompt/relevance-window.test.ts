import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConversationIndex, groupTurns, type PastTurn } from '../../../../kernel/agent/prompt/conversation-index';
import { pickPromptWindow, DEFAULT_PROMPT_WINDOW_POLICY, type PromptWindowPolicy } from '../../../../kernel/agent/prompt/relevance-window';
import type { RecallSources } from '../../../../kernel/agent/prompt/recall';
import { estimateTokens } from '../../../../kernel/agent/prompt/tokens';
import type { LlmMessage } from '../../../../kernel/llm/types';

const SYSTEM: LlmMessage = { role: 'system', content: 'You are HomeAgent.' };
const NO_SOURCES: RecallSources = {};

function turn(seq: number, question: string, answer: string): PastTurn {
  return {
    seq,
    messages: [
      { role: 'user', content: question },
      { role: 'assistant', content: answer },
    ],
  };
}

/** A long history about many small things, with one old turn about the boiler. */
function history(count: number): PastTurn[] {
  const topics = ['the weather in town', 'a recipe for noodles', 'the football results', 'a film to watch', 'the train times', 'a birthday present'];
  const turns: PastTurn[] = [];
  for (let i = 0; i < count; i++) {
    const topic = topics[i % topics.length]!;
    turns.push(turn(i * 2 + 1, `tell me about ${topic} number ${i}`, `here is something about ${topic}`));
  }
  turns[5] = turn(
    11,
    'the boiler pressure gauge shows 0.5 bar, what should it be?',
    'A sealed boiler should read between 1 and 1.5 bar; top it up with the filling loop.',
  );
  return turns;
}

function policy(over: Partial<PromptWindowPolicy> = {}): PromptWindowPolicy {
  return { ...DEFAULT_PROMPT_WINDOW_POLICY, ...over };
}

describe('RelevanceWindow', () => {
  it('keeps the newest turns whole and picks an old turn by relevance, not age', () => {
    const index = new ConversationIndex(history(200));
    const picked = pickPromptWindow('what pressure should the boiler have?', SYSTEM, index, NO_SOURCES, policy());
    assert.deepEqual(picked.olderTurns, [11]);
    const texts = picked.messages.map((m) => m.content);
    assert.ok(
      texts.some((t) => t.includes('1 and 1.5 bar')),
      'the old boiler answer is in the context',
    );
    // The last three turns are there, whole and in order, at the end.
    const tail = picked.messages.slice(-6).map((m) => m.content);
    assert.deepEqual(
      tail,
      index
        .list()
        .slice(-3)
        .flatMap((t) => t.messages.map((m) => m.content)),
    );
    assert.equal(picked.messages[0], SYSTEM);
  });

  it('picks nothing old for an input unlike anything said before', () => {
    const index = new ConversationIndex(history(50));
    const picked = pickPromptWindow('zebra xylophone quartz', SYSTEM, index, NO_SOURCES, policy());
    assert.deepEqual(picked.olderTurns, []);
    assert.equal(picked.messages.length, 1 + 6);
  });

  it('stays within its token budget however long the history', () => {
    const long = history(300).map((t, i) => turn(t.seq, `${t.messages[0]!.content} boiler ${'words '.repeat(200)}`, `answer ${i} about the boiler`));
    const index = new ConversationIndex(long);
    const budget = 2000;
    const picked = pickPromptWindow('boiler', SYSTEM, index, NO_SOURCES, policy({ budgetTokens: budget, recentTurns: 1, olderTurns: 50 }));
    const total = picked.messages.reduce((sum, m) => sum + estimateTokens(m.content) + 4, 0) + estimateTokens('boiler') + 4;
    assert.ok(picked.olderTurns.length > 0, 'some older turns fit');
    assert.ok(total <= budget, `the context takes ${total} tokens, over the ${budget} budget`);
    assert.ok(picked.tokens <= budget);
  });

  it('brings memories and knowledge with their sources, the most relevant first, and drops weak hits', () => {
    const sources: RecallSources = {
      searchMemory: () => [
        { id: 'F1', text: "Lin's birthday is 3 May", source: 'distill, session cli:a', score: 9 },
        { id: 'F2', text: 'Lin likes tea', source: 'distill, session cli:a', score: 1 },
      ],
      searchKnowledge: () => [{ id: 'c1', text: 'Descale monthly with citric acid.', source: 'coffee.md § Descaling', score: 5 }],
    };
    const picked = pickPromptWindow("when is Lin's birthday?", SYSTEM, new ConversationIndex(), sources, policy());
    const memory = picked.messages.find((m) => m.source === 'memory');
    assert.ok(memory, 'a memory message');
    assert.ok(memory.content.includes('3 May') && memory.content.includes('F1'));
    assert.ok(!memory.content.includes('likes tea'), 'a hit far below the best is left out');
    const knowledge = picked.messages.find((m) => m.source === 'coffee.md § Descaling');
    assert.ok(knowledge, 'a knowledge message');
    assert.ok(knowledge.content.includes('citric acid'));
    assert.ok(knowledge.content.includes('coffee.md § Descaling'), 'the source is named in the text the model reads');
  });

  it('selects over a 1,000-turn history in a few milliseconds', () => {
    const index = new ConversationIndex(history(1000));
    pickPromptWindow('boiler pressure', SYSTEM, index, NO_SOURCES, policy());
    const start = performance.now();
    for (let i = 0; i < 20; i++) pickPromptWindow(`boiler pressure ${i}`, SYSTEM, index, NO_SOURCES, policy());
    const each = (performance.now() - start) / 20;
    // Not a timing assertion of the target (that is the bench's job): only a guard against a quadratic slip.
    assert.ok(each < 250, `one selection took ${each.toFixed(1)} ms`);
  });

  it('groups stored messages into turns at each person message, and forgets the oldest past its cap', () => {
    const rows = [
      { seq: 1, message: { role: 'user', content: 'a' } },
      { seq: 2, message: { role: 'assistant', content: '', toolCalls: [] } },
      { seq: 3, message: { role: 'tool', content: 'r', toolCallId: 'x' } },
      { seq: 4, message: { role: 'assistant', content: 'done' } },
      { seq: 5, message: { role: 'user', content: 'b' } },
    ] as { seq: number; message: LlmMessage }[];
    const turns = groupTurns(rows);
    assert.deepEqual(
      turns.map((t) => [t.seq, t.messages.length]),
      [
        [1, 4],
        [5, 1],
      ],
    );
    const capped = new ConversationIndex(history(20), 10);
    assert.equal(capped.size, 10);
    assert.equal(capped.list()[0]!.seq, history(20)[10]!.seq);
  });
});
