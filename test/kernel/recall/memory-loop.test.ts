// Memory end to end in a kernel: a person's words distilled into the graph in the background,
// recalled in another session after a restart, superseded by a contradiction, merged when two
// entities are one — the model's answers scripted, everything else real.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { DISTILL_INSTRUCTIONS } from '../../../kernel/recall/distill/extraction';
import type { LlmRequest } from '../../../kernel/llm/types';
import { ask, outputs } from '../agent/chat';
import { ScriptedLlm, lastUser, type ScriptedAnswer } from '../agent/scripted-llm';
import { FAST_POLICY, startTestKernel, type TestKernel } from '../kernel-harness';
import { waitFor } from '../../harness/wait';

/** Distill at once when idle; consolidation only when a test runs it. */
const LOOPS = { HOMEAGENT_MEMORY_POLICY: JSON.stringify({ distill: { enabled: true, idleMs: 0 }, consolidation: { enabled: false } }) };

type Extracted = { entities: object[]; facts: object[] };

/** The model: extracts what `extract` says for distill requests, answers consolidation questions with `verdicts`, and otherwise repeats the memory it was given. */
function model(extract: (conversation: string) => Extracted, verdicts = '[]'): ScriptedLlm {
  return new ScriptedLlm((request: LlmRequest): ScriptedAnswer => {
    if (request.messages[0]?.content === DISTILL_INSTRUCTIONS) return { text: JSON.stringify(extract(lastUser(request))) };
    const question = lastUser(request);
    if (question.startsWith('[memory consolidation]')) return { text: verdicts };
    const memory = request.messages.find((m) => m.role === 'system' && m.source === 'memory');
    return { text: memory ? `I remember: ${memory.content}` : 'I do not know that.' };
  });
}

function fact(subject: string, predicate: string, object: string, text: string, extra: object = {}): object {
  return { subject, predicate, object, text, ...extra };
}

const kernels: TestKernel[] = [];
after(async () => {
  for (const t of kernels) await t.close();
});

async function start(llm: ScriptedLlm, dataDir?: string): Promise<TestKernel> {
  const t = await startTestKernel(['chat-client'], FAST_POLICY, { llm, keepDataDir: true, env: LOOPS, ...(dataDir ? { dataDir } : {}) });
  kernels.push(t);
  return t;
}

describe('memory across sessions and restarts', () => {
  it('recalls in another session, after a restart, what a person said once', async () => {
    const llm = model((conversation) =>
      conversation.includes('Lin')
        ? {
            entities: [
              { name: 'Lin', kind: 'person', aliases: ['my sister'] },
              { name: 'Hangzhou', kind: 'place' },
            ],
            facts: [
              fact('Lin', 'sister_of', 'owner', "Lin is the owner's sister.", { object_is_entity: true }),
              fact('Lin', 'lives_in', 'Hangzhou', 'Lin lives in Hangzhou.', { object_is_entity: true, single: true }),
              fact('Lin', 'birthday', '3 May', "Lin's birthday is 3 May.", { single: true }),
            ],
          }
        : { entities: [], facts: [] },
    );
    const first = await start(llm);
    await ask(first, 'cli:monday', 'my sister Lin lives in Hangzhou and her birthday is 3 May');
    await waitFor(() => first.kernel.recall.memory.search('Lin birthday').some((h) => h.text.includes('3 May')), {
      what: 'the birthday distilled into memory',
      timeoutMs: 15_000,
    });
    const distillCalls = llm.calls.filter((c) => c.request.messages[0]?.content === DISTILL_INSTRUCTIONS);
    assert.equal(distillCalls.length, 1, 'one distill request for one new turn');
    assert.deepEqual(distillCalls[0]!.request.tools, [], 'distilling offers the model no tools');
    await first.close();

    const second = await start(llm, first.dataDir);
    const answer = await ask(second, 'cli:friday', "when is Lin's birthday?");
    assert.equal(answer.kind, 'done');
    assert.match(answer.text ?? '', /3 May/);
    const graph = second.kernel.recall.queries.graph({ entity: 'my sister' });
    assert.equal(graph.entity?.name, 'Lin', 'an alias finds the entity');
    const birthday = graph.facts.find((f) => f.predicate === 'birthday');
    assert.ok(
      birthday?.sources.some((s) => s.includes('cli:monday')),
      `provenance names the session: ${JSON.stringify(birthday?.sources)}`,
    );
    assert.ok(graph.neighbours.some((n) => n.name === 'Hangzhou'));
  });

  it('supersedes a contradicted fact and keeps both in the history', async () => {
    const llm = model((conversation) => {
      if (conversation.includes('moved to Shanghai')) {
        return {
          entities: [{ name: 'Lin' }, { name: 'Shanghai', kind: 'place' }],
          facts: [fact('Lin', 'lives_in', 'Shanghai', 'Lin lives in Shanghai.', { object_is_entity: true, single: true })],
        };
      }
      if (conversation.includes('Hangzhou')) {
        return {
          entities: [{ name: 'Lin' }, { name: 'Hangzhou', kind: 'place' }],
          facts: [fact('Lin', 'lives_in', 'Hangzhou', 'Lin lives in Hangzhou.', { object_is_entity: true, single: true })],
        };
      }
      return { entities: [], facts: [] };
    });
    const t = await start(llm);
    await ask(t, 'cli:a', 'Lin lives in Hangzhou');
    await waitFor(() => t.kernel.recall.memory.search('Lin lives').some((h) => h.text.includes('Hangzhou')), {
      what: 'Hangzhou remembered',
      timeoutMs: 15_000,
    });
    await ask(t, 'cli:a', 'Lin moved to Shanghai last month');
    await waitFor(() => t.kernel.recall.memory.search('Lin lives').some((h) => h.text.includes('Shanghai')), {
      what: 'Shanghai remembered',
      timeoutMs: 15_000,
    });
    const current = t.kernel.recall.memory.search('Lin lives');
    assert.ok(!current.some((h) => h.text.includes('Hangzhou')), 'the superseded fact leaves ordinary search');
    const history = t.kernel.recall.queries.graph({ entity: 'Lin' }).facts.filter((f) => f.predicate === 'lives_in');
    assert.equal(history.length, 2, 'both facts are kept');
    const old = history.find((f) => f.object === 'Hangzhou')!;
    const now = history.find((f) => f.object === 'Shanghai')!;
    assert.equal(old.validity, 'superseded');
    assert.equal(old.supersededBy, now.id);
    assert.equal(now.validity, 'current');
    const answer = await ask(t, 'cli:b', 'where does Lin live?');
    assert.match(answer.text ?? '', /Shanghai/);
    assert.doesNotMatch(answer.text ?? '', /Hangzhou/, 'the old fact does not enter the context');
  });

  it('merges duplicate entities: the sure ones at once, the ambiguous after asking the model through the loop-back input', async () => {
    const llm = model((conversation) => {
      if (conversation.includes('Lin Wei')) {
        return {
          entities: [{ name: 'Lin Wei', kind: 'person', aliases: ['Weiwei'] }],
          facts: [fact('Lin Wei', 'works_at', 'the hospital', 'Lin Wei works at the hospital.', { single: true })],
        };
      }
      if (conversation.includes('Weiwei'))
        return { entities: [{ name: 'Weiwei', kind: 'person' }], facts: [fact('Weiwei', 'likes', 'green tea', 'Weiwei likes green tea.')] };
      if (conversation.includes('Lin'))
        return { entities: [{ name: 'Lin', kind: 'person' }], facts: [fact('Lin', 'birthday', '3 May', "Lin's birthday is 3 May.", { single: true })] };
      return { entities: [], facts: [] };
    }, '[{"pair": 1, "same": true}]');
    const t = await start(llm);
    for (const text of ['Lin was born on 3 May', 'Weiwei likes green tea', 'my sister Lin Wei, we call her Weiwei, works at the hospital']) {
      await ask(t, 'cli:dup', text);
      await waitFor(() => t.kernel.sessions.undistilled(() => false).length === 0, { what: `"${text}" distilled`, timeoutMs: 15_000 });
    }
    const before = t.kernel.recall.memory.duplicateCandidates();
    assert.ok(before.sure.length >= 1, `"Weiwei" and "Lin Wei, also called Weiwei" are surely one: ${JSON.stringify(before)}`);
    assert.ok(before.ambiguous.length >= 1, `"Lin" may be "Lin Wei": ${JSON.stringify(before)}`);
    const report = await t.kernel.recall.consolidation.runOnce();
    assert.equal(report.interrupted, false);
    assert.ok(report.merged.length >= 2, `merged: ${JSON.stringify(report.merged)}`);
    const lin = t.kernel.recall.queries.graph({ entity: 'Lin' });
    assert.ok(lin.entity);
    assert.ok(lin.facts.some((f) => f.text.includes('green tea')) && lin.facts.some((f) => f.text.includes('hospital')), 'facts moved to the kept entity');
    assert.ok(lin.mergedFrom.length >= 2 && lin.mergedFrom.every((m) => m.source.includes('consolidation')), 'each merge is recorded with its provenance');
    assert.ok(
      lin.facts.every((f) => f.sources.length > 0),
      'merged facts keep where they came from',
    );
    const question = llm.calls.find((c) => lastUser(c.request).startsWith('[memory consolidation]'));
    assert.ok(question, 'the ambiguous pair went to the model');
    assert.deepEqual(question.request.tools, [], 'the loop-back question offers no tools');
    assert.ok(!(await outputs(t)).some((o) => o.session === '_consolidation_'), 'the loop-back answer reached no person');
    // Asked once: a second run has nothing left to ask.
    const again = await t.kernel.recall.consolidation.runOnce();
    assert.equal(again.asked, 0);
  });

  it("a person's input stops distillation at once; the work is redone later and written once", async () => {
    let slow = true;
    const llm = new ScriptedLlm((request) => {
      if (request.messages[0]?.content === DISTILL_INSTRUCTIONS) {
        const answer = { text: JSON.stringify({ entities: [{ name: 'Mia' }], facts: [fact('Mia', 'likes', 'chess', 'Mia likes chess.')] }) };
        return slow ? { ...answer, tokenDelayMs: 5_000 } : answer;
      }
      return { text: 'ok' };
    });
    const t = await start(llm);
    await ask(t, 'cli:int', 'Mia likes chess');
    const distilling = await waitFor(() => llm.calls.find((c) => c.request.messages[0]?.content === DISTILL_INSTRUCTIONS && c.endedAt === undefined), {
      what: 'a distill request in flight',
      timeoutMs: 15_000,
    });
    slow = false;
    const answered = await ask(t, 'cli:int', 'what time is it?');
    assert.equal(answered.kind, 'done');
    assert.ok(distilling.abortedAt !== undefined, "the person's input aborted the distill request");
    await waitFor(() => t.kernel.recall.memory.search('Mia chess').length > 0, { what: 'Mia remembered', timeoutMs: 15_000 });
    await waitFor(() => t.kernel.sessions.undistilled(() => false).length === 0, { what: 'all distilled', timeoutMs: 15_000 });
    const mia = t.kernel.recall.queries.graph({ entity: 'Mia' });
    assert.equal(mia.facts.filter((f) => f.predicate === 'likes').length, 1, 'the fact is written once');
  });
});
