import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Logger } from 'pino';
import { KernelEvents, OutputNotification, type KernelStatus, type StageName } from '../protocol';
import { Agent } from './agent/agent';
import { createChildTools } from './agent/child-tools';
import { AGENT_DEFS } from './agent/config-defs';
import type { ConsolidationLoop } from './recall/consolidation/consolidation-loop';
import { SessionContexts } from './agent/prompt/session-contexts';
import type { DistillLoop } from './recall/distill/distill-loop';
import { createMemoryTools } from './recall/memory-tools';
import { MEMORY_DEFS } from './recall/memory-policy';
import { MemoryService } from './recall/memory-service';
import { loadAgentPolicy, type AgentPolicy } from './agent/policy';
import type { RecallService } from './recall/recall-service';
import { SessionStore } from './agent/sessions';
import { StageHost, type StageHandlerRef } from './stages/stage-host';
import { ToolRouter, type PluginToolRef } from './agent/tool-router';
import type { TurnDeps } from './agent/turn';
import { IOManager, type OutputEvent } from './io/io-manager';
import { splitOutput } from './io/output-pieces';
import type { MemoryStore } from './memory';
import { ProviderManager, seedProviderFromEnv } from './llm';
import { ConfigRegistry, CORE_SCOPE, seedDefaults, type CorePaths } from './config';
import { EventBus } from './events/bus';
import { createRootLogger, followLogLevel } from './log';
import { BUILTIN_PLUGIN_DIR, PACKAGE_ROOT, createConfiguredDirs, createDataTree, makePrivate, privatePaths, type DataTree } from './paths';
import { PACKAGE_DEFS, sweepStaging } from './packages';
import { discoverPlugins } from './registry/discover';
import { bindKernelServices, interceptPriorityMessage, type KernelServices } from './sdk-server/bind';
import { PackageAdmin } from './sdk-server/package-methods';
import { hasPermission } from './sdk-server/permissions';
import { subscribeDeclared } from './sdk-server/event-methods';
import { loadSupervisorPolicy, type SupervisorPolicy } from './supervisor/policy';
import { Supervisor } from './supervisor/supervisor';

export const KERNEL_VERSION = (JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

export interface KernelOptions {
  dataDir: string;
  /** Where built-in plugins are found (default: the compiled plugins/ folder). */
  builtinDir?: string;
  /** Environment read for test overrides (HOMEAGENT_SUPERVISOR_POLICY). */
  env?: NodeJS.ProcessEnv;
  /** The LLM the agent calls (default: the configured providers). */
  llm?: TurnDeps['llm'];
  /** Logger to use instead of the root one on stdout. */
  log?: Logger;
}

/** The kernel's parts, wired in the plan's init order. */
export class Kernel {
  readonly startedAt = Date.now();
  readonly tree: DataTree;
  readonly config: ConfigRegistry;
  readonly paths: CorePaths;
  readonly log: Logger;
  readonly bus = new EventBus();
  readonly policy: SupervisorPolicy;
  readonly supervisor: Supervisor;
  readonly io = new IOManager();
  readonly sessions: SessionStore;
  readonly stages: StageHost;
  readonly tools: ToolRouter;
  readonly agent: Agent;
  readonly packages: PackageAdmin;
  /** The LLM every turn, the memory loops and llm/complete use. */
  readonly llm: TurnDeps['llm'];
  /** Memory, knowledge, distillLoop and the _consolidation_ loop. */
  readonly memories: MemoryService;
  private agentPolicy: AgentPolicy;
  private services!: KernelServices;

  constructor(options: KernelOptions) {
    // 1–2. data dir and its tree
    this.tree = createDataTree(options.dataDir);
    // 3. configuration registry with the path keys seeded
    this.config = ConfigRegistry.open(this.tree.configDb);
    this.paths = seedDefaults(this.config, options.dataDir);
    createConfiguredDirs(this.paths);
    // 4. infrastructure: logs, events, supervision policy
    this.log = options.log ?? createRootLogger(String(this.config.getValue(CORE_SCOPE, 'core.log.level') ?? 'info'));
    followLogLevel(this.config, this.log);
    this.config.onChange((change) => this.bus.publish(KernelEvents.ConfigChanged, 'kernel', change));
    this.policy = loadSupervisorPolicy((key) => this.config.getValue(CORE_SCOPE, key), options.env ?? process.env);
    // 5–6. the agent's parts: sessions, stages, tools, the LLM
    this.config.define(CORE_SCOPE, AGENT_DEFS);
    this.config.define(CORE_SCOPE, PACKAGE_DEFS);
    this.config.define(CORE_SCOPE, MEMORY_DEFS);
    this.agentPolicy = loadAgentPolicy((key) => this.config.getValue(CORE_SCOPE, key));
    this.config.onChange((change) => {
      if (change.scope === CORE_SCOPE && (change.key.startsWith('core.agent.') || change.key.startsWith('core.context.'))) this.agentPolicy = loadAgentPolicy((key) => this.config.getValue(CORE_SCOPE, key));
    });
    this.sessions = new SessionStore(path.join(this.tree.data, 'agent.db'));
    // Memory: the graph, the knowledge base, the loops that fill and tidy them.
    seedProviderFromEnv(this.config, options.env ?? process.env);
    const llm = (this.llm = options.llm ?? new ProviderManager(this.config, this.tree.data, { env: options.env ?? process.env, log: this.log.child({ subsystem: 'llm' }) }));
    this.memories = new MemoryService({
      paths: this.paths,
      dataDir: this.tree.data,
      sessions: this.sessions,
      io: this.io,
      llm,
      idleForMs: () => this.agent.idleForMs(),
      readCore: (key) => this.config.getValue(CORE_SCOPE, key),
      env: options.env ?? process.env,
      log: this.log,
    });
    const memoryTools = createMemoryTools(this.recall);
    this.stages = new StageHost((stage) => this.stageHandlers(stage), () => this.agentPolicy.stageTimeoutMs);
    this.tools = new ToolRouter(() => this.pluginTools(), () => [...createChildTools(), ...memoryTools], () => this.agentPolicy.toolTimeoutMs);
    const kernel = this;
    const turnDeps: TurnDeps = {
      stages: this.stages,
      tools: this.tools,
      llm,
      get policy() {
        return kernel.agentPolicy;
      },
    };
    // 7–8. plugin registry (built-ins, then third-party) and their supervisor
    this.supervisor = this.createSupervisor(options.builtinDir ?? BUILTIN_PLUGIN_DIR);
    this.packages = this.services.packages;
    // 9. the agent: eventLoop, interceptLoop (distillLoop and the _consolidation_ loop are in MemoryService)
    this.agent = new Agent({
      io: this.io,
      sessions: this.sessions,
      turn: turnDeps,
      policy: () => this.agentPolicy,
      contexts: new SessionContexts(this.sessions, this.recall, () => this.agentPolicy.context),
      deliver: (output) => this.deliverOutput(output),
      loopback: (input, output) => this.memories.consolidation.handleLoopback(input, output),
      log: this.log.child({ subsystem: 'agent' }),
    });
  }

  /** Sends an output to its plugin, in pieces when its text is too big for one wire message; a plugin that is not ready is logged, not waited for. */
  private deliverOutput(output: OutputEvent): void {
    const { target, ...params } = output;
    const plugin = this.supervisor.plugins.get(target);
    const proc = plugin?.process;
    if (!plugin || !proc || plugin.state !== 'ready') {
      const state = plugin ? plugin.state : 'not installed';
      if (params.kind !== 'delta') this.log.warn({ plugin: target, session: params.session, kind: params.kind }, `output not delivered: plugin "${target}" is ${state}; the turn is kept in its session`);
      return;
    }
    try {
      for (const piece of splitOutput(params)) proc.channel.notify(OutputNotification.type, piece);
    } catch (error) {
      this.log.warn({ plugin: target, session: params.session, kind: params.kind }, `output not delivered: ${(error as Error).message}; the turn is kept in its session`);
    }
  }

  get memory(): MemoryStore {
    return this.memories.memory;
  }

  get recall(): RecallService {
    return this.memories.recall;
  }

  get consolidation(): ConsolidationLoop {
    return this.memories.consolidation;
  }

  get distill(): DistillLoop {
    return this.memories.distill;
  }

  /** Settles once the knowledge base has opened (or failed to). */
  get knowledgeReady(): Promise<void> {
    return this.memories.knowledgeReady;
  }

  /**
   * Plugins that declared a stage at their last handshake, with the permission to handle it, unless their owner
   * stopped or disabled them. One that is not ready is not called: the stage skips it at once (a guard: denies).
   */
  private stageHandlers(stage: StageName): StageHandlerRef[] {
    const refs: StageHandlerRef[] = [];
    for (const plugin of this.supervisor.plugins.values()) {
      if (plugin.state === 'stopped' || plugin.state === 'disabled') continue;
      if (!plugin.declaration?.stages.includes(stage) || !hasPermission(plugin, 'stages')) continue;
      const state = () => plugin.state;
      refs.push({ plugin: plugin.name, priority: plugin.record.manifest.priority ?? 0, channel: plugin.process?.channel, state });
    }
    return refs;
  }

  /** Tools plugins declared at their last handshake, with the permission to offer them, in start order; each knows its plugin's state. */
  private pluginTools(): PluginToolRef[] {
    const refs: PluginToolRef[] = [];
    for (const status of this.supervisor.list()) {
      const plugin = this.supervisor.plugins.get(status.name)!;
      if (!plugin.declaration || !hasPermission(plugin, 'tools')) continue;
      const channel = plugin.process?.channel;
      const state = () => plugin.state;
      for (const decl of plugin.declaration.tools) refs.push({ plugin: plugin.name, decl, channel, state });
    }
    return refs;
  }

  /** Starts every enabled plugin in dependency order. */
  async start(): Promise<void> {
    // A homed that died mid-install may have left a staging folder, or an old version set aside.
    await sweepStaging(this.paths.pluginDir);
    await this.supervisor.startAll();
    await this.adoptRestored();
    this.memories.start(() => this.keepDataPrivate());
    this.agent.start();
    this.bus.publish(KernelEvents.KernelReady, 'kernel', {});
  }

  /** Stops every plugin in reverse order and closes the database. */
  async stop(): Promise<void> {
    this.bus.publish(KernelEvents.KernelStopping, 'kernel', {});
    await this.memories.stopLoops();
    await this.agent.stop();
    await this.supervisor.stopAll();
    await this.memories.close();
    this.sessions.close();
    this.config.close();
  }

  /** The databases and memory folders are the owner's alone, also when an older homed or a person made them readable. */
  private keepDataPrivate(): void {
    try {
      makePrivate(privatePaths(this.tree, this.paths));
    } catch (error) {
      this.log.warn(`could not make the data files owner-only: ${(error as Error).message}`);
    }
  }

  /** Supervises third-party plugin folders put back by sweepStaging after discovery ran. */
  private async adoptRestored(): Promise<void> {
    const { plugins } = discoverPlugins(path.join(this.tree.data, '.no-builtins'), this.paths.pluginDir);
    for (const record of plugins) {
      if (this.supervisor.plugins.has(record.name)) continue;
      await this.packages.adopt(record.name).catch((error: unknown) => this.log.error({ plugin: record.name }, `plugin not loaded: ${(error as Error).message}`));
    }
  }

  status(): KernelStatus {
    const plugins = this.supervisor.list();
    return {
      version: KERNEL_VERSION,
      pid: process.pid,
      uptime_ms: Date.now() - this.startedAt,
      dataDir: this.tree.data,
      plugins: {
        ready: plugins.filter((p) => p.state === 'ready').length,
        enabled: plugins.filter((p) => p.state !== 'disabled').length,
        total: plugins.length,
      },
      rss_bytes: process.memoryUsage.rss(),
      node: process.version,
      turns: this.agent.load(),
    };
  }

  private createSupervisor(builtinDir: string): Supervisor {
    const { config, bus, log } = this;
    const { plugins, problems } = discoverPlugins(builtinDir, this.paths.pluginDir);
    for (const problem of problems) log.error({ dir: problem.dir }, `plugin not loaded: ${problem.message}`);
    const refused = new Map<string, string>();
    for (const record of plugins) {
      try {
        config.define(record.name, record.manifest.config ?? []);
      } catch (error) {
        refused.set(record.name, `cannot start: its plugin.json declares a setting the kernel refuses: ${(error as Error).message}`);
      }
    }
    const services: KernelServices = {
      config,
      bus,
      io: this.io,
      status: () => this.status(),
      supervisor: undefined as unknown as Supervisor,
      packages: undefined as unknown as PackageAdmin,
      recall: () => this.recall,
      llm: () => this.llm,
      sessions: this.sessions,
    };
    this.services = services;
    services.supervisor = new Supervisor(
      plugins,
      problems,
      this.policy,
      {
        bus,
        log,
        kernelVersion: KERNEL_VERSION,
        dataDir: this.tree.data,
        runDir: this.tree.run,
        pluginDataDir: (name) => path.join(this.tree.pluginData, name),
        bindKernelServices: (plugin, connection) => bindKernelServices(connection, plugin, services),
        intercept: (plugin, message) => interceptPriorityMessage(plugin, message, services),
        onDeclared: (plugin, declaration) => {
          try {
            if (declaration.config.length > 0) config.define(plugin.name, declaration.config);
            subscribeDeclared(plugin, bus, declaration.subscriptions);
          } catch (error) {
            plugin.note('error', `declaration refused: ${(error as Error).message}`);
          }
        },
        logLinesKept: Number(config.getValue(CORE_SCOPE, 'core.log.lines_kept') ?? 500),
      },
      config,
    );
    for (const [name, reason] of refused) services.supervisor.refuse(name, reason);
    services.packages = new PackageAdmin({
      supervisor: services.supervisor,
      config,
      pluginDir: this.paths.pluginDir,
      pluginDataDir: (name) => path.join(this.tree.pluginData, name),
      kernelVersion: KERNEL_VERSION,
    });
    return services.supervisor;
  }
}
