import { CORE_SCOPE, type ConfigRegistry } from '../config';
import { defineLlmConfig } from './config-defs';

/** The provider name a first start seeds from the environment. */
export const ENV_PROVIDER_NAME = 'main';

const ENV_KEYS = {
  adapter: 'HOMEAGENT_LLM_ADAPTER',
  base_url: 'HOMEAGENT_LLM_BASE_URL',
  model: 'HOMEAGENT_LLM_MODEL',
  api_key: 'HOMEAGENT_LLM_API_KEY',
} as const;

/**
 * On a start where `llm.default` is not set, configures provider "main" from HOMEAGENT_LLM_ADAPTER
 * (default openai), _BASE_URL, _MODEL and _API_KEY and makes it the default. Does nothing once
 * llm.default is set (config wins over the environment) or when none of adapter, base URL and model
 * is given. Returns the name seeded, if any.
 */
export function seedProviderFromEnv(config: ConfigRegistry, env: NodeJS.ProcessEnv = process.env): string | undefined {
  defineLlmConfig(config);
  const current = config.getValue(CORE_SCOPE, 'llm.default');
  if (typeof current === 'string' && current.trim() !== '') return undefined;
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  if (read(ENV_KEYS.adapter) === undefined && read(ENV_KEYS.base_url) === undefined && read(ENV_KEYS.model) === undefined) return undefined;
  const name = ENV_PROVIDER_NAME;
  for (const [field, variable] of Object.entries(ENV_KEYS)) {
    const value = read(variable) ?? (field === 'adapter' ? 'openai' : undefined);
    if (value !== undefined) config.set(CORE_SCOPE, `llm.provider.${name}.${field}`, value);
  }
  config.set(CORE_SCOPE, 'llm.default', name);
  return name;
}
