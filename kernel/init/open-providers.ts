import type { Logger } from 'pino';
import type { TurnDeps } from '../agent/turn';
import type { ConfigRegistry } from '../config';
import { ProviderManager, seedProviderFromEnv } from '../llm';

/** The LLM every turn, the memory loops and llm/complete use. */
export type KernelLlm = TurnDeps['llm'];

/** Seeds a provider from the environment when none is configured, then answers the given LLM or the configured providers. */
export function openProviders(config: ConfigRegistry, dataDir: string, env: NodeJS.ProcessEnv, log: Logger, given?: KernelLlm): KernelLlm {
  seedProviderFromEnv(config, env);
  return given ?? new ProviderManager(config, dataDir, { env, log: log.child({ subsystem: 'llm' }) });
}
