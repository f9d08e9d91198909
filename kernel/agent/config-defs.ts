import type { ConfigDef } from '../../protocol';

const SECOND = 1000;

/** The agent's settings (`core.agent.*`), rendered by every UI from this metadata. */
export const AGENT_DEFS: readonly ConfigDef[] = [
  {
    key: 'core.agent.max_iterations',
    type: 'int',
    category: 'agent',
    default: 8,
    min: 1,
    max: 100,
    description: { zh: '一次对话回合中最多调用 LLM 的轮数（工具循环上限）。', en: 'Most LLM rounds in one turn (the bound on the tool loop).' },
  },
  {
    key: 'core.agent.stage_timeout',
    type: 'duration',
    category: 'agent',
    default: 2 * SECOND,
    min: 1,
    description: { zh: '每个阶段处理器的答复期限；超时者被跳过并计数。', en: 'Deadline of each stage handler; a late one is skipped and counted.' },
  },
  {
    key: 'core.agent.tool_timeout',
    type: 'duration',
    category: 'agent',
    default: 30 * SECOND,
    min: 1,
    description: { zh: '工具调用的默认期限（工具可自行声明）。', en: 'Default deadline of a tool call (a tool may declare its own).' },
  },
  {
    key: 'core.agent.history_messages',
    type: 'int',
    category: 'agent',
    default: 40,
    min: 0,
    description: { zh: '每回合附带的该会话历史消息条数。', en: 'Earlier messages of the session sent with each turn.' },
  },
  {
    key: 'core.agent.system_prompt',
    type: 'string',
    category: 'agent',
    default: '',
    description: { zh: '系统提示词；留空使用内置提示词。', en: 'The system prompt; empty uses the built-in one.' },
  },
  {
    key: 'core.agent.child_max_depth',
    type: 'int',
    category: 'agent',
    default: 2,
    min: 0,
    max: 5,
    description: { zh: '子 agent 可嵌套的最大深度。', en: 'How deep sub-agents may nest.' },
  },
  {
    key: 'core.agent.child_max_running',
    type: 'int',
    category: 'agent',
    default: 4,
    min: 1,
    max: 32,
    description: { zh: '每个回合同时运行的子 agent 上限。', en: 'Sub-agents one turn may run at once.' },
  },
  {
    key: 'core.agent.child_timeout',
    type: 'duration',
    category: 'agent',
    default: 120 * SECOND,
    min: 1,
    description: { zh: '子 agent 完成任务的时限。', en: 'Time a sub-agent has to finish its task.' },
  },
];
