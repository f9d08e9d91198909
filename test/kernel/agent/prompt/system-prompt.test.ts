// The plugins' blocks in a turn's system message, and what they take from the context budget.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConversationIndex, type PastTurn } from '../../../../kernel/agent/prompt/conversation-index';
import { DEFAULT_PROMPT_WINDOW_POLICY, pickPromptWindow } from '../../../../kernel/agent/prompt/relevance-window';
import { estimateMessageTokens } from '../../../../kernel/agent/prompt/tokens';
import { DEFAULT_AGENT_POLICY } from '../../../../kernel/agent/policy';
import { ToolRouter } from '../../../../kernel/agent/tool-router';
import { Turn, type TurnDeps } from '../../../../kernel/agent/turn';
import type { LlmMessage } from '../../../../kernel/llm/types';
import { StageHost } from '../../../../kernel/stages/stage-host';
import { ScriptedLlm } from '../scripted-llm';

const BASE = 'You are HomeAgent.';
const QUIET = { delta: () => undefined, notice: () => undefined, tool: () => undefined };

function depsOf(llm: ScriptedLlm, blocks: string[]): TurnDeps {
  return {
    stages: new StageHost(
      () => [],
      () => 2_000,
    ),
    tools: new ToolRouter(
      () => [],
      () => [],
      () => 30_000,
    ),
    llm,
    policy: { ...DEFAULT_AGENT_POLICY, systemPrompt: BASE },
    promptBlocks: () => blocks,
  };
}

test('the blocks follow the system prompt, a paragraph each; the window is picked with that same message', async () => {
  const llm = new ScriptedLlm(() => ({ text: 'ok' }));
  let given: LlmMessage | undefined;
  const history = (system: LlmMessage): LlmMessage[] => {
    given = system;
    return [];
  };
  await new Turn({ session: 'cli:s', text: 'hi', history, depth: 0 }, depsOf(llm, ['Block of a.', 'Block of b.']), QUIET).run();
  const sent = llm.calls[0]!.request.messages[0]!;
  assert.deepEqual(sent, { role: 'system', content: `${BASE}\n\nBlock of a.\n\nBlock of b.` });
  assert.deepEqual(given, sent, 'the window was counted with the blocks in');
});

test('a sub-agent gets the blocks after its brief; a turn offered no tools gets none', async () => {
  const llm = new ScriptedLlm(() => ({ text: 'ok' }));
  const deps = depsOf(llm, ['Block of a.']);
  await new Turn({ session: 'cli:s/child', text: 'task', history: [], depth: 1, brief: 'the facts' }, deps, QUIET).run();
  assert.equal(
    llm.calls[0]!.request.messages[0]!.content,
    `${BASE}\nYou are a sub-agent working on one task; answer with the result only.\nContext: the facts\n\nBlock of a.`,
  );
  await new Turn({ session: '_consolidation_', text: 'merge', history: [], depth: 0, tools: false }, deps, QUIET).run();
  assert.equal(llm.calls[1]!.request.messages[0]!.content, BASE);
});

test("a block's tokens come off what earlier turns may take: fewer are picked, and the whole stays within the budget", () => {
  const turns: PastTurn[] = [];
  for (let i = 0; i < 60; i++)
    turns.push({
      seq: i * 2 + 1,
      messages: [
        { role: 'user', content: `boiler question ${i} ${'detail '.repeat(30)}` },
        { role: 'assistant', content: `boiler answer ${i}` },
      ],
    });
  const policy = { ...DEFAULT_PROMPT_WINDOW_POLICY, budgetTokens: 1_500, recentTurns: 1, olderTurns: 50 };
  const plain: LlmMessage = { role: 'system', content: BASE };
  const withBlock: LlmMessage = { role: 'system', content: `${BASE}\n\n${'skill: does a thing. '.repeat(150)}` };
  const without = pickPromptWindow('boiler', plain, new ConversationIndex(turns), {}, policy);
  const within = pickPromptWindow('boiler', withBlock, new ConversationIndex(turns), {}, policy);
  const blockTokens = estimateMessageTokens(withBlock) - estimateMessageTokens(plain);
  assert.ok(blockTokens > 700, `the block counts ${blockTokens} tokens`);
  assert.ok(
    within.olderTurns.length < without.olderTurns.length,
    `${within.olderTurns.length} older turns with the block, ${without.olderTurns.length} without`,
  );
  assert.ok(within.tokens <= policy.budgetTokens && within.tokens >= blockTokens, `the window counts ${within.tokens} tokens`);
});
