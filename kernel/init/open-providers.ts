import * as path from 'node:path';
import type { Logger } from 'pino';
import type { TurnDeps } from '../agent/turn';
import type { ConfigRegistry } from '../config';
import { ProviderManager, seedProviderFromEnv } from '../llm';
import { UsageLedger } from '../llm/usage-ledger';

/** The LLM every turn, the memory loops and llm/complete use. */
export type KernelLlm = TurnDeps['llm'];

/** The LLM and what it has cost so far. */
export interface Providers {
  llm: KernelLlm;
  /** Tokens and requests per provider, model and day (agent.db), counted for the configured providers. */
  usage: UsageLedger;
}

/** Seeds a provider from the environment when none is configured, then answers the given LLM or the configured providers. */
export function openProviders(config: ConfigRegistry, dataDir: string, env: NodeJS.ProcessEnv, log: Logger, given?: KernelLlm): Providers {
  seedProviderFromEnv(config, env);
  const usage = new UsageLedger(path.join(dataDir, 'agent.db'));
  const llm = given ?? new ProviderManager(config, dataDir, { env, log: log.child({ subsystem: 'llm' }), onAnswer: (result) => usage.record(result) });
  return { llm, usage };
}
