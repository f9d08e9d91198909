import type { ConfigDef } from '../../protocol';
import { CORE_SCOPE, type ConfigRegistry } from '../config';

const SECOND = 1000;

function def(key: string, type: ConfigDef['type'], zh: string, en: string, extra: Partial<ConfigDef> = {}): ConfigDef {
  return { key, type, category: 'llm', description: { zh, en }, ...extra };
}

/** The LLM settings in the core table; per-provider keys are patterns (`llm.provider.<name>.api_key`). */
export const LLM_DEFS: readonly ConfigDef[] = [
  def(
    'llm.default',
    'string',
    '默认使用的 LLM 提供方名称，例如 work（对应 llm.provider.work.*）。',
    'Name of the LLM provider used by default, e.g. work (its settings are llm.provider.work.*).',
  ),
  def(
    'llm.fallbacks',
    'string',
    '默认提供方失败时依次尝试的提供方名称，用逗号分隔，例如 backup,local。',
    'Providers tried in order when the default one fails, comma-separated, e.g. backup,local.',
    { default: '' },
  ),
  def(
    'llm.retry.attempts',
    'int',
    '每个提供方的最多尝试次数（含第一次），之后转向下一个提供方。',
    'Most attempts per provider, the first included, before the next provider is tried.',
    { default: 3, min: 1, max: 10 },
  ),
  def('llm.retry.base_delay', 'duration', '第一次重试前的等待时间，之后每次翻倍。', 'Wait before the first retry; it doubles with each further retry.', {
    default: 1 * SECOND,
    min: 0,
  }),
  def('llm.retry.max_delay', 'duration', '两次尝试之间的最长等待时间。', 'Longest wait between two attempts.', { default: 20 * SECOND, min: 0 }),
  def(
    'llm.retry.max_retry_after',
    'duration',
    '提供方要求（retry-after）的最长等待时间；要求更久时立即转向下一个提供方。',
    'Longest retry-after the kernel waits for; a provider asking for longer is failed over at once.',
    { default: 30 * SECOND, min: 0 },
  ),
  def(
    'llm.provider.*.adapter',
    'string',
    '协议适配器：openai（任何 OpenAI 兼容服务：OpenAI、vLLM、llama.cpp、LM Studio）、anthropic、ollama，数据目录 adapters/ 下的 Lua 文件名，或 .lua 文件路径。',
    "Protocol adapter: openai (any OpenAI-compatible server: OpenAI, vLLM, llama.cpp, LM Studio), anthropic, ollama, the name of a Lua file in the data dir's adapters/, or the path of a .lua file.",
    { default: 'openai' },
  ),
  def(
    'llm.provider.*.base_url',
    'string',
    '提供方的基础 URL，例如 https://api.openai.com/v1、https://api.anthropic.com、http://127.0.0.1:11434；留空使用适配器的默认值。',
    "Base URL of the provider, e.g. https://api.openai.com/v1, https://api.anthropic.com, http://127.0.0.1:11434; empty means the adapter's default.",
  ),
  def(
    'llm.provider.*.model',
    'string',
    '使用的模型名称，例如 gpt-4o-mini、claude-sonnet-4-5、llama3.2。',
    'Model to use, e.g. gpt-4o-mini, claude-sonnet-4-5, llama3.2.',
  ),
  def('llm.provider.*.api_key', 'password', '提供方的 API 密钥；从不以明文显示。', 'API key of the provider; never shown in clear.'),
  def(
    'llm.provider.*.max_tokens',
    'int',
    '每次回答最多生成的 token 数；留空使用适配器的默认值。',
    "Most tokens generated per answer; empty means the adapter's default.",
    { min: 1 },
  ),
  def(
    'llm.provider.*.context_window',
    'int',
    '模型一次最多接受的 token 数（上下文窗口）；发往它的请求会被缩短以放得下，并为回答留出 max_tokens（未设时留四分之一）。留空则只受 core.context.budget_tokens 限制。',
    'Most tokens the model takes in at once (its context window); requests to it are shortened to fit, leaving room for the answer (max_tokens, else a quarter of the window). Empty: only core.context.budget_tokens bounds them.',
    { min: 1000 },
  ),
  def(
    'llm.provider.*.timeout',
    'duration',
    '最长允许多久没有进展：连不上、收不到响应头，或收不到回答的任何部分（保活注释、空数据块和 ping 不算进展）。超时后按重试策略重试。',
    'Longest time without progress: no connection, no response headers, or no part of the answer (keep-alive comments, empty chunks and pings do not count). A timed-out attempt is retried per the retry policy.',
    { default: 120 * SECOND, min: SECOND },
  ),
  def(
    'llm.provider.*.deadline',
    'duration',
    '一次尝试从发出请求到回答结束的最长时间，无论数据是否仍在到达；超过后不再重试此提供方，转向下一个提供方。',
    'Longest time one attempt may take, from sending the request to the end of the answer, however steadily it streams; past it the provider is not retried and the next one is tried.',
    { default: 600 * SECOND, min: SECOND },
  ),
];

/** Declares the LLM settings in the core table (idempotent); the kernel calls it at start. */
export function defineLlmConfig(config: ConfigRegistry): void {
  config.define(CORE_SCOPE, LLM_DEFS);
}
