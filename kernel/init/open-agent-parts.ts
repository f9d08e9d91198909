import * as path from 'node:path';
import { KernelEvents } from '../../protocol';
import { loadAgentPolicy, type AgentPolicy } from '../agent/policy';
import { SessionStore } from '../agent/sessions';
import { CORE_SCOPE, type ConfigRegistry } from '../config';
import type { DataTree } from '../paths';
import { Recall } from '../recall/recall';
import type { Infrastructure } from './start-infrastructure';
import type { KernelLlm } from './open-providers';
import type { Settings } from './open-settings';

/** The agent policy as it is now: reloaded whenever a core.agent.* or core.context.* setting changes. */
export interface AgentPolicyNow {
  readonly current: AgentPolicy;
}

/** What the agent works with besides plugins: its policy, the conversations, and recall (memory and knowledge). */
export interface AgentParts {
  agentPolicy: AgentPolicyNow;
  sessions: SessionStore;
  recall: Recall;
}

/** Opens the conversations (agent.db) and recall; `idleForMs` asks the agent, once it exists, how long it has been idle. */
export function openAgentParts(
  tree: DataTree,
  settings: Settings,
  infra: Infrastructure,
  llm: KernelLlm,
  env: NodeJS.ProcessEnv,
  idleForMs: () => number,
): AgentParts {
  const { config, paths } = settings;
  const sessions = new SessionStore(path.join(tree.data, 'agent.db'));
  const recall = new Recall({
    paths,
    dataDir: tree.data,
    sessions,
    io: infra.io,
    llm,
    idleForMs,
    readCore: (key) => config.getValue(CORE_SCOPE, key),
    env,
    log: infra.log,
    knowledgeChanged: (change) => infra.bus.publish(KernelEvents.KnowledgeChanged, 'kernel', change),
  });
  return { agentPolicy: followAgentPolicy(config), sessions, recall };
}

/** The agent policy, reloaded when a setting it reads changes. */
function followAgentPolicy(config: ConfigRegistry): AgentPolicyNow {
  const read = (key: string): unknown => config.getValue(CORE_SCOPE, key);
  let current = loadAgentPolicy(read);
  config.onChange((change) => {
    if (change.scope === CORE_SCOPE && (change.key.startsWith('core.agent.') || change.key.startsWith('core.context.'))) current = loadAgentPolicy(read);
  });
  return {
    get current() {
      return current;
    },
  };
}
