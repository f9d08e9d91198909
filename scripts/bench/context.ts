// RelevanceWindow: picking a turn's context from a 1,000-turn history (target ≤ 5 ms), beside the
// plain "last N messages" slice it replaces, over the same history in the same run.
import { ConversationIndex, type PastTurn } from '../../kernel/agent/prompt/conversation-index';
import { DEFAULT_PROMPT_WINDOW_POLICY, pickPromptWindow } from '../../kernel/agent/prompt/relevance-window';
import type { LlmMessage } from '../../kernel/llm/types';
import { makeRow, type BenchRow } from './results';
import { median, quantile } from './stats';

const WORDS = (
  'boiler pressure garden tomato bread oven timer train ticket birthday present sister brother holiday ' +
  'hangzhou shanghai coffee machine descale filter water tank router wifi password invoice tax doctor ' +
  'appointment medicine dentist school homework piano lesson football match recipe noodles dumplings tea ' +
  '咖啡 除垢 生日 妹妹 杭州 上海 火车 天气 医生 预约 花园 番茄'
).split(' ');

function sentence(seed: number, words: number): string {
  const out: string[] = [];
  let x = seed;
  for (let i = 0; i < words; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(WORDS[x % WORDS.length]!);
  }
  return out.join(' ');
}

function history(turns: number): PastTurn[] {
  return Array.from({ length: turns }, (_, i) => ({
    seq: i * 2 + 1,
    messages: [
      { role: 'user', content: sentence(i * 7 + 1, 25) },
      { role: 'assistant', content: sentence(i * 13 + 5, 60) },
    ] as LlmMessage[],
  }));
}

/** Selection time over 1,000 turns (index already built), and the cost of building the index once. */
export function benchContext(): BenchRow[] {
  const turns = history(1000);
  const system: LlmMessage = { role: 'system', content: 'You are HomeAgent.' };
  const buildStart = performance.now();
  const index = new ConversationIndex(turns);
  const buildMs = performance.now() - buildStart;
  const queries = Array.from({ length: 200 }, (_, i) => sentence(i * 31 + 3, 12));
  for (const q of queries.slice(0, 20)) pickPromptWindow(q, system, index, {}, DEFAULT_PROMPT_WINDOW_POLICY);
  const picks: number[] = [];
  const slices: number[] = [];
  const flat = turns.flatMap((t) => t.messages);
  let sink = 0;
  for (const q of queries) {
    let start = performance.now();
    pickPromptWindow(q, system, index, {}, DEFAULT_PROMPT_WINDOW_POLICY);
    picks.push(performance.now() - start);
    start = performance.now();
    sink += [system, ...flat.slice(-40), { role: 'user', content: q }].length;
    slices.push(performance.now() - start);
  }
  if (sink === 0) throw new Error('the baseline built no context');
  return [
    makeRow('6 memory', 'RelevanceContext pick, 1,000 turns, p50', median(picks), 'ms', 'last-40 slice', median(slices), picks.length, {
      kind: 'value-at-most',
      max: 5,
    }),
    makeRow('6 memory', 'RelevanceContext pick, 1,000 turns, p99', quantile(picks, 0.99), 'ms', 'last-40 slice', quantile(slices, 0.99), picks.length),
    makeRow('6 memory', 'conversation index build, 1,000 turns (once per session)', buildMs, 'ms', 'RelevanceContext pick p50', median(picks), 1),
  ];
}
