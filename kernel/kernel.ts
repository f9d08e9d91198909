import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Logger } from 'pino';
import { KernelEvents, type KernelStatus } from '../protocol';
import { ConfigRegistry, CORE_SCOPE, seedDefaults, type CorePaths } from './config';
import { EventBus } from './events/bus';
import { createRootLogger } from './log';
import { BUILTIN_PLUGIN_DIR, PACKAGE_ROOT, createConfiguredDirs, createDataTree, type DataTree } from './paths';
import { discoverPlugins } from './registry/discover';
import { bindKernelServices, type KernelServices } from './sdk-server/bind';
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

  constructor(options: KernelOptions) {
    // 1–2. data dir and its tree
    this.tree = createDataTree(options.dataDir);
    // 3. configuration registry with the path keys seeded
    this.config = ConfigRegistry.open(this.tree.configDb);
    this.paths = seedDefaults(this.config, options.dataDir);
    createConfiguredDirs(this.paths);
    // 4. infrastructure: logs, events, supervision policy
    this.log = options.log ?? createRootLogger(String(this.config.getValue(CORE_SCOPE, 'core.log.level') ?? 'info'));
    this.config.onChange((change) => this.bus.publish(KernelEvents.ConfigChanged, 'kernel', change));
    this.policy = loadSupervisorPolicy((key) => this.config.getValue(CORE_SCOPE, key), options.env ?? process.env);
    // 5–8. plugin registry (built-ins, then third-party) and their supervisor
    this.supervisor = this.createSupervisor(options.builtinDir ?? BUILTIN_PLUGIN_DIR);
  }

  /** Starts every enabled plugin in dependency order. */
  async start(): Promise<void> {
    await this.supervisor.startAll();
    this.bus.publish(KernelEvents.KernelReady, 'kernel', {});
  }

  /** Stops every plugin in reverse order and closes the database. */
  async stop(): Promise<void> {
    this.bus.publish(KernelEvents.KernelStopping, 'kernel', {});
    await this.supervisor.stopAll();
    this.config.close();
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
    const services: KernelServices = { config, bus, status: () => this.status(), supervisor: undefined as unknown as Supervisor };
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
    return services.supervisor;
  }
}
