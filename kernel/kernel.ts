import type { Logger } from 'pino';
import { KernelEvents, type KernelStatus } from '../protocol';
import type { Agent } from './agent/agent';
import type { SessionStore } from './agent/sessions';
import type { ToolRouter } from './agent/tool-router';
import type { ConfigRegistry, CorePaths } from './config';
import type { EventBus } from './events/bus';
import type { IOManager } from './io/io-manager';
import { assembleAgent } from './init/assemble-agent';
import { findPlugins } from './init/find-plugins';
import { followSkillsPath } from './init/follow-skills-path';
import { keepDataPrivate } from './init/keep-data-private';
import { openAgentParts } from './init/open-agent-parts';
import { openProviders, type KernelLlm } from './init/open-providers';
import { openSettings } from './init/open-settings';
import { startInfrastructure } from './init/start-infrastructure';
import { startPlugins } from './init/start-plugins';
import { supervisePlugins } from './init/supervise-plugins';
import { KERNEL_VERSION } from './init/version';
import type { PackageAdmin } from './packages/package-admin';
import { BUILTIN_PLUGIN_DIR, createDataTree, type DataTree } from './paths';
import type { Recall } from './recall/recall';
import type { HealthDesk } from './health/health-desk';
import { openHealth } from './init/open-health';
import { loadWatchdogPolicy } from './health/watchdog';
import { pluginsHealth } from './health/plugins-health';
import type { KernelServices } from './sdk-server/bind';
import type { UsageLedger } from './llm/usage-ledger';
import type { KernelLog } from './logs/kernel-log';
import type { StageHost } from './stages/stage-host';
import type { PluginRouter } from './supervisor/plugin-router';
import type { SupervisorPolicy } from './supervisor/policy';
import type { Supervisor } from './supervisor/supervisor';

export { KERNEL_VERSION };

export interface KernelOptions {
  dataDir: string;
  /** Where built-in plugins are found (default: the compiled plugins/ folder; null: none). */
  builtinDir?: string | null;
  /** Environment read for test overrides (HOMEAGENT_SUPERVISOR_POLICY). */
  env?: NodeJS.ProcessEnv;
  /** The LLM the agent calls (default: the configured providers). */
  llm?: KernelLlm;
  /** Logger to use instead of the root one on stdout. */
  log?: Logger;
}

/** The kernel's parts, built by the init steps in order (docs/ARCHITECTURE.md §1); `start` runs them, `stop` ends them in reverse. */
export class Kernel {
  readonly startedAt = Date.now();
  readonly tree: DataTree;
  readonly config: ConfigRegistry;
  readonly paths: CorePaths;
  readonly log: Logger;
  readonly bus: EventBus;
  readonly io: IOManager;
  readonly policy: SupervisorPolicy;
  /** The LLM every turn, the memory loops and llm/complete use. */
  readonly llm: KernelLlm;
  /** Tokens and requests per provider, model and day. */
  readonly usage: UsageLedger;
  /** Every line logged, kept for homectl logs. */
  readonly kernelLog: KernelLog;
  readonly sessions: SessionStore;
  /** Memory, knowledge, their queries, distillLoop and the _consolidation_ loop. */
  readonly recall: Recall;
  readonly supervisor: Supervisor;
  /** Which plugins handle a stage, offer tools, receive an output. */
  readonly router: PluginRouter;
  readonly packages: PackageAdmin;
  /** What every plugin's SDK methods reach. */
  readonly services: KernelServices;
  readonly stages: StageHost;
  readonly tools: ToolRouter;
  readonly agent: Agent;
  /** What the healthcheck plugin probes and reports to, and the hooks the systemd watchdog asks. */
  readonly health: HealthDesk;

  constructor(options: KernelOptions) {
    const env = options.env ?? process.env;
    this.tree = createDataTree(options.dataDir);
    const settings = openSettings(this.tree);
    ({ config: this.config, paths: this.paths } = settings);
    const infra = startInfrastructure(this.config, env, options.log);
    ({ log: this.log, bus: this.bus, io: this.io, policy: this.policy, kernelLog: this.kernelLog } = infra);
    ({ llm: this.llm, usage: this.usage } = openProviders(this.config, this.tree.data, env, this.log, options.llm));
    followSkillsPath(this.config, this.tree.data, (msg) => this.log.warn(msg));
    const parts = openAgentParts(this.tree, settings, infra, this.llm, env, () => this.agent.idleForMs());
    ({ sessions: this.sessions, recall: this.recall } = parts);
    const builtin = options.builtinDir === undefined ? BUILTIN_PLUGIN_DIR : options.builtinDir;
    const found = findPlugins({ ...(builtin === null ? {} : { builtin }), installed: this.paths.pluginDir }, this.config, this.log);
    this.health = openHealth(this.tree, this.paths, this.config, () => this.supervisor, loadWatchdogPolicy(env));
    const plugins = supervisePlugins(found, this.tree, settings, infra, {
      health: this.health,
      sessions: this.sessions,
      recall: this.recall,
      llm: this.llm,
      usage: this.usage,
      logs: this.kernelLog,
      status: () => this.status(),
    });
    ({ supervisor: this.supervisor, router: this.router, packages: this.packages, services: this.services } = plugins);
    ({ stages: this.stages, tools: this.tools, agent: this.agent } = assembleAgent(parts, plugins, infra, this.llm));
    this.health.hooks.register(pluginsHealth(() => this.supervisor.plugins.values(), this.policy));
  }

  /** Starts every enabled plugin in dependency order, then recall's loops and the agent. */
  async start(): Promise<void> {
    this.health.start();
    await startPlugins(this.supervisor, this.packages, this.paths.pluginDir, this.log);
    this.recall.start(() => keepDataPrivate(this.tree, this.paths, this.log));
    this.agent.start();
    this.bus.publish(KernelEvents.KernelReady, 'kernel', {});
  }

  /** Stops every plugin in reverse order and closes the databases. */
  async stop(): Promise<void> {
    this.bus.publish(KernelEvents.KernelStopping, 'kernel', {});
    await this.recall.stopLoops();
    await this.agent.stop();
    await this.supervisor.stopAll();
    await this.recall.close();
    this.sessions.close();
    this.usage.close();
    this.config.close();
    this.kernelLog.close();
    this.health.stop();
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
      health: { report: this.health.latest.get(), watchdog: this.health.hooks.peek() },
    };
  }
}
