// The memory loops' settings (`core.memory.*`): metadata every UI renders, and the policies read from them.
import type { ConfigDef } from '../../protocol';
import { DEFAULT_CONSOLIDATION_POLICY, type ConsolidationPolicy } from './consolidation/consolidation-loop';
import { DEFAULT_DISTILL_POLICY, type DistillPolicy } from './distill/distill-loop';

const SECOND = 1000;

export const MEMORY_DEFS: readonly ConfigDef[] = [
  {
    key: 'core.memory.distill',
    type: 'bool',
    category: 'memory',
    default: true,
    description: {
      zh: '空闲时把对话提炼为长期记忆（事实、实体、关系）。',
      en: 'Distil conversations into long-term memory (facts, entities, relations) when idle.',
    },
  },
  {
    key: 'core.memory.distill_idle',
    type: 'duration',
    category: 'memory',
    default: DEFAULT_DISTILL_POLICY.idleMs,
    min: 0,
    description: {
      zh: 'agent 空闲多久后开始提炼；有人输入会立即打断提炼。',
      en: "How long the agent must be idle before distilling; a person's input interrupts it at once.",
    },
  },
  {
    key: 'core.memory.distill_batch',
    type: 'int',
    category: 'memory',
    default: DEFAULT_DISTILL_POLICY.batchMessages,
    min: 2,
    max: 500,
    description: { zh: '每次提炼请求最多包含的消息数。', en: 'Most messages in one distill request.' },
  },
  {
    key: 'core.memory.consolidate_every',
    type: 'duration',
    category: 'memory',
    default: DEFAULT_CONSOLIDATION_POLICY.everyMs,
    min: SECOND,
    description: {
      zh: '记忆整理（合并重复实体、清理、VACUUM）的最长间隔。',
      en: 'Longest gap between memory consolidations (merging duplicate entities, pruning, VACUUM).',
    },
  },
  {
    key: 'core.memory.consolidate_idle',
    type: 'duration',
    category: 'memory',
    default: DEFAULT_CONSOLIDATION_POLICY.idleMs,
    min: 0,
    description: { zh: '有新记忆后，agent 空闲多久即进行整理。', en: 'After new memories, how long the agent must be idle before consolidating.' },
  },
  {
    key: 'core.memory.retention_days',
    type: 'int',
    category: 'memory',
    default: DEFAULT_CONSOLIDATION_POLICY.retentionDays,
    min: 1,
    description: {
      zh: '已被取代或遗忘的事实保留多少天后清除（在此之前历史中仍可查）。',
      en: 'Days superseded or forgotten facts are kept (in the history) before they are pruned.',
    },
  },
];

/** Test override: JSON `{"distill": {…}, "consolidation": {…}}` in HOMEAGENT_MEMORY_POLICY, applied over config. */
interface MemoryPolicyOverride {
  distill?: Partial<DistillPolicy>;
  consolidation?: Partial<ConsolidationPolicy>;
}

function readOverride(env: NodeJS.ProcessEnv): MemoryPolicyOverride {
  const raw = env['HOMEAGENT_MEMORY_POLICY'];
  if (!raw) return {};
  try {
    return JSON.parse(raw) as MemoryPolicyOverride;
  } catch (error) {
    throw new Error(`HOMEAGENT_MEMORY_POLICY is not valid JSON: ${(error as Error).message}`);
  }
}

/** The distill policy from config, defaults for what is unset, the test override on top. */
export function loadDistillPolicy(read: (key: string) => unknown, env: NodeJS.ProcessEnv = {}): DistillPolicy {
  const d = DEFAULT_DISTILL_POLICY;
  return {
    ...d,
    enabled: read('core.memory.distill') !== false,
    idleMs: num(read('core.memory.distill_idle'), d.idleMs),
    batchMessages: num(read('core.memory.distill_batch'), d.batchMessages),
    ...readOverride(env).distill,
  };
}

/** The consolidation policy from config, defaults for what is unset, the test override on top. */
export function loadConsolidationPolicy(read: (key: string) => unknown, env: NodeJS.ProcessEnv = {}): ConsolidationPolicy {
  const d = DEFAULT_CONSOLIDATION_POLICY;
  return {
    ...d,
    everyMs: num(read('core.memory.consolidate_every'), d.everyMs),
    idleMs: num(read('core.memory.consolidate_idle'), d.idleMs),
    retentionDays: num(read('core.memory.retention_days'), d.retentionDays),
    ...readOverride(env).consolidation,
  };
}

function num(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}
