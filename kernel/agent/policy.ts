import { DEFAULT_CHECKPOINT_MS } from './checkpointer';
import { DEFAULT_PROMPT_WINDOW_POLICY, type PromptWindowPolicy } from './prompt/relevance-window';
import { DEFAULT_LANE_LIMITS, type LaneLimits } from './lanes';

/** How the agent runs turns; defaults in one place, overridable from config. */
export interface AgentPolicy {
  /** LLM rounds in one turn before it stops with what it has. */
  maxIterations: number;
  /** Deadline of one stage handler. */
  stageTimeoutMs: number;
  /** Default deadline of one tool call. */
  toolTimeoutMs: number;
  /** What enters each turn's context. */
  promptWindow: PromptWindowPolicy;
  /** The system prompt. */
  systemPrompt: string;
  children: { maxDepth: number; maxRunning: number; timeoutMs: number };
  /** Turns running at once and inputs waiting, per lane and in all. */
  lanes: LaneLimits;
  /** Longest answer in characters; past it the stream stops and the turn ends with an error. */
  maxAnswerChars: number;
  /** Interval between two checkpoints of a streaming answer. */
  checkpointMs: number;
}

export const DEFAULT_AGENT_POLICY: AgentPolicy = {
  maxIterations: 8,
  stageTimeoutMs: 2_000,
  toolTimeoutMs: 30_000,
  promptWindow: DEFAULT_PROMPT_WINDOW_POLICY,
  systemPrompt:
    "You are HomeAgent, a personal assistant running on its owner's home server. Answer concisely, in the language of the question. Use the tools when they help.",
  children: { maxDepth: 2, maxRunning: 4, timeoutMs: 120_000 },
  lanes: DEFAULT_LANE_LIMITS,
  maxAnswerChars: 1_000_000,
  checkpointMs: DEFAULT_CHECKPOINT_MS,
};

/** The policy from config keys (`core.agent.*`), defaults for what is unset. */
export function loadAgentPolicy(read: (key: string) => unknown): AgentPolicy {
  const num = (key: string, fallback: number): number => {
    const value = read(key);
    return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
  };
  const d = DEFAULT_AGENT_POLICY;
  const prompt = read('core.agent.system_prompt');
  return {
    maxIterations: num('core.agent.max_iterations', d.maxIterations),
    stageTimeoutMs: num('core.agent.stage_timeout', d.stageTimeoutMs),
    toolTimeoutMs: num('core.agent.tool_timeout', d.toolTimeoutMs),
    promptWindow: {
      ...d.promptWindow,
      budgetTokens: num('core.context.budget_tokens', d.promptWindow.budgetTokens),
      recentTurns: num('core.context.recent_turns', d.promptWindow.recentTurns),
      olderTurns: num('core.context.older_turns', d.promptWindow.olderTurns),
      memories: num('core.context.memories', d.promptWindow.memories),
      knowledgeChunks: num('core.context.knowledge_chunks', d.promptWindow.knowledgeChunks),
    },
    systemPrompt: typeof prompt === 'string' && prompt.trim() ? prompt : d.systemPrompt,
    children: {
      maxDepth: num('core.agent.child_max_depth', d.children.maxDepth),
      maxRunning: num('core.agent.child_max_running', d.children.maxRunning),
      timeoutMs: num('core.agent.child_timeout', d.children.timeoutMs),
    },
    lanes: {
      ...d.lanes,
      personTurns: num('core.agent.max_concurrent_turns', d.lanes.personTurns),
      backgroundTurns: num('core.agent.max_background_turns', d.lanes.backgroundTurns),
      perLane: num('core.agent.max_queued_per_session', d.lanes.perLane),
    },
    maxAnswerChars: num('core.agent.max_answer_chars', d.maxAnswerChars),
    checkpointMs: num('core.agent.checkpoint_interval', d.checkpointMs),
  };
}
