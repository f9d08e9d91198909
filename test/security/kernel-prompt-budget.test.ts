// Every request to the model fits core.context.budget_tokens: after a 10 MB answer (its cap raised), the next
// turn's request and distill's are within the budget, the big answer shortened head and tail with a marker saying
// how much was left out and that the whole is in the session (before: the next request was 10.5 MB).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { estimateTokens } from '../../protocol/tokens';
import { DISTILL_INSTRUCTIONS } from '../../kernel/recall/distill/extraction';
import { startFakeLlmFor, type FakeRequest } from '../fake-llm/server';
import { fakeProviderEnv, runHomectl, startHomed, waitFor } from '../harness/homed';
import { runWaiter } from '../harness/waiter';

const MB = 1_000_000;
const BUDGET = 8000;
const LOOPS = JSON.stringify({ distill: { enabled: true, idleMs: 0 }, consolidation: { enabled: false } });

interface Body {
  messages: { role: string; content: string | null }[];
}

function messagesOf(request: FakeRequest): Body['messages'] {
  return (request.body as Body).messages;
}

function isDistill(request: FakeRequest): boolean {
  return messagesOf(request)[0]?.content === DISTILL_INSTRUCTIONS;
}

/** The estimate homed budgets with, over every message's text (framing included). */
function tokensOf(request: FakeRequest): number {
  return messagesOf(request).reduce((sum, m) => sum + 4 + estimateTokens(m.content ?? ''), 0);
}

describe('the prompt within its budget', () => {
  it('after a 10 MB answer the next turn and distill ask the model within core.context.budget_tokens', { timeout: 240_000 }, async (t) => {
    const llm = await startFakeLlmFor(t);
    const line = 'lorem ipsum dolor sit amet consectetur adipiscing elit\n';
    const chunk = line.repeat(Math.ceil(MB / line.length)).slice(0, MB);
    let turns = 0;
    llm.setDefault((request) => {
      if (isDistill(request)) return { text: '{"entities":[],"facts":[]}' };
      turns += 1;
      return turns === 1 ? { chunks: Array.from({ length: 10 }, () => chunk) } : { text: 'Short this time.' };
    });
    const homed = await startHomed({ env: { ...fakeProviderEnv(llm), HOMEAGENT_MEMORY_POLICY: LOOPS } });
    t.after(() => homed.cleanup());
    const { dataDir } = homed;
    assert.equal((await runHomectl(['config', 'set', 'core.agent.max_answer_chars', '20000000'], { dataDir })).code, 0);
    const say = (text: string) => runWaiter(['-data', dataDir, '--session', 'cli:budget', '-say', text], { timeoutMs: 120_000 });
    const big = await say('tell me everything');
    assert.equal(big.code, 0, big.stderr);
    assert.equal(big.stdout.length, 10 * MB + 1, 'the whole answer reached the person');

    const next = await say('and in short?');
    assert.equal(next.code, 0, next.stderr);
    assert.equal(next.stdout, 'Short this time.\n');
    const turnRequest = llm.requests.filter((r) => !isDistill(r)).at(-1)!;
    t.diagnostic(`next turn: ${turnRequest.rawBody.length} bytes, about ${tokensOf(turnRequest)} tokens`);
    assert.ok(tokensOf(turnRequest) <= BUDGET, `the next turn's request is about ${tokensOf(turnRequest)} tokens, over ${BUDGET}`);
    const shortened = messagesOf(turnRequest).find((m) => m.role === 'assistant' && (m.content ?? '').startsWith('lorem'));
    assert.ok(shortened, 'the big answer is still there, shortened');
    assert.match(shortened.content ?? '', /\[… [\d,]+ characters left out here; the whole message is kept in the session …\]/);
    assert.ok((shortened.content ?? '').endsWith('elit\n') || (shortened.content ?? '').includes('elit'), 'its tail is kept');

    const distill = await waitFor(() => llm.requests.find(isDistill), { what: 'a distill request', timeoutMs: 60_000 });
    t.diagnostic(`distill: ${distill.rawBody.length} bytes, about ${tokensOf(distill)} tokens`);
    assert.ok(tokensOf(distill) <= BUDGET, `distill's request is about ${tokensOf(distill)} tokens, over ${BUDGET}`);
  });
});
