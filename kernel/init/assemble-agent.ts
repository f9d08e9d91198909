import { Agent } from '../agent/agent';
import { createChildTools } from '../agent/child-tools';
import { PromptWindows } from '../agent/prompt/prompt-windows';
import { ToolRouter } from '../agent/tool-router';
import type { TurnDeps } from '../agent/turn';
import { createMemoryTools } from '../recall/memory-tools';
import { StageHost } from '../stages/stage-host';
import type { AgentParts } from './open-agent-parts';
import type { KernelLlm } from './open-providers';
import type { Infrastructure } from './start-infrastructure';
import { withDeclaredDeadlines } from './stage-deadlines';
import type { SupervisedPlugins } from './supervise-plugins';

/** The agent and what each of its turns runs through: the stage pipeline and the tool router. */
export interface AssembledAgent {
  stages: StageHost;
  tools: ToolRouter;
  agent: Agent;
}

/** Builds the stage pipeline and tool router on the supervised plugins, and the agent (eventLoop, interceptLoop) on top; nothing runs yet. */
export function assembleAgent(parts: AgentParts, plugins: SupervisedPlugins, infra: Infrastructure, llm: KernelLlm): AssembledAgent {
  const { agentPolicy, sessions, recall } = parts;
  const { router } = plugins;
  const kernelTools = [...createChildTools(), ...createMemoryTools(recall.queries)];
  const declarationOf = (plugin: string) => plugins.supervisor.plugins.get(plugin)?.declaration;
  const stages = new StageHost(
    (stage) => withDeclaredDeadlines(stage, router.stageHandlers(stage), declarationOf),
    () => agentPolicy.current.stageTimeoutMs,
  );
  const tools = new ToolRouter(
    () => router.offeredTools(),
    () => kernelTools,
    () => agentPolicy.current.toolTimeoutMs,
    plugins.services.toolCalls,
  );
  const turn: TurnDeps = {
    stages,
    tools,
    llm,
    promptBlocks: () => router.promptBlocks(),
    get policy() {
      return agentPolicy.current;
    },
  };
  const agent = new Agent({
    io: infra.io,
    sessions,
    turn,
    policy: () => agentPolicy.current,
    promptWindows: new PromptWindows(sessions, recall.queries, () => agentPolicy.current.promptWindow),
    deliver: (output) => router.deliver(output),
    loopback: (input, output) => recall.consolidation.handleLoopback(input, output),
    reaches: (plugin) => plugins.supervisor.plugins.get(plugin)?.state === 'ready',
    log: infra.log.child({ subsystem: 'agent' }),
  });
  return { stages, tools, agent };
}
