import { ErrorCodes, haError, type PluginAction, type PluginStatus } from '../../protocol';
import type { DiscoveryProblem, PluginRecord } from '../registry/discover';
import { orderByDependencies } from '../registry/order';
import { PluginSupervisor, type SupervisorServices } from './plugin-supervisor';
import type { SupervisorPolicy } from './policy';
import { ResourceWatch } from './resource-watch';

/** Where a plugin's enabled flag is kept. */
export interface EnabledStore {
  isEnabled(name: string): boolean | undefined;
  setEnabled(name: string, enabled: boolean): void;
}

/** Every plugin: started by dependency level, stopped in reverse, controlled by name. */
export class Supervisor {
  readonly plugins = new Map<string, PluginSupervisor>();
  readonly problems: DiscoveryProblem[];
  private readonly levels: string[][];
  private readonly watch: ResourceWatch;

  constructor(
    records: PluginRecord[],
    problems: DiscoveryProblem[],
    private readonly policy: SupervisorPolicy,
    private readonly services: SupervisorServices,
    private readonly enabled: EnabledStore,
  ) {
    this.problems = problems;
    for (const record of records) this.plugins.set(record.name, new PluginSupervisor(record, policy, services));
    const order = orderByDependencies(records.map((r) => ({ name: r.name, depends: r.manifest.depends ?? [] })));
    this.levels = order.levels;
    for (const [name, problem] of order.problems) this.plugins.get(name)?.markFailed(`cannot start: it ${problem}`);
    this.watch = new ResourceWatch(policy, () => this.plugins.values());
  }

  /** The kernel's data directory. */
  get dataDir(): string {
    return this.services.dataDir;
  }

  /** Starts every enabled plugin, level by level; answers once each is ready or has failed to get there. */
  async startAll(): Promise<void> {
    for (const level of this.levels) {
      await Promise.all(
        level.map((name) => {
          const plugin = this.plugins.get(name)!;
          if (!this.isEnabled(plugin)) {
            plugin.markDisabled();
            return undefined;
          }
          return plugin.start();
        }),
      );
    }
    this.watch.start();
  }

  /** Stops every plugin in reverse start order, each level in parallel. */
  async stopAll(): Promise<void> {
    this.watch.stop();
    for (const level of [...this.levels].reverse()) {
      await Promise.all(
        level.map((name) => this.plugins.get(name)!.stop('kernel-shutdown', this.plugins.get(name)!.state === 'disabled' ? 'disabled' : 'stopped')),
      );
    }
  }

  /** Keeps a plugin from starting, marked failed with the reason (a manifest the kernel cannot use). */
  refuse(name: string, reason: string): void {
    this.get(name).markFailed(reason);
    for (const level of this.levels) {
      const at = level.indexOf(name);
      if (at >= 0) level.splice(at, 1);
    }
  }

  /**
   * Puts a newly installed (or upgraded) plugin under supervision: a supervisor of that name is replaced
   * (stop the old process first), the new one is started last, if enabled; with `refused` it is marked
   * failed with that reason instead. Answers its supervisor.
   */
  async addOrReplace(record: PluginRecord, refused?: string): Promise<PluginSupervisor> {
    this.drop(record.name);
    const plugin = new PluginSupervisor(record, this.policy, this.services);
    this.plugins.set(record.name, plugin);
    this.levels.push([record.name]);
    if (refused !== undefined) plugin.markFailed(refused);
    else if (this.isEnabled(plugin)) await plugin.start();
    else plugin.markDisabled();
    return plugin;
  }

  /** Forgets a plugin (removed from disk); its process must already be stopped. */
  drop(name: string): void {
    this.plugins.delete(name);
    for (const level of this.levels) {
      const at = level.indexOf(name);
      if (at >= 0) level.splice(at, 1);
    }
  }

  /** Plugins' statuses in start order. */
  list(): PluginStatus[] {
    return this.inStartOrder().map((p) => p.status());
  }

  get(name: string): PluginSupervisor {
    const plugin = this.plugins.get(name);
    if (!plugin) {
      throw haError(ErrorCodes.NotFound, `no plugin named "${name}"; see homectl plugins list`, { plugin: name });
    }
    return plugin;
  }

  /** Carries out a person's action on a plugin and answers its status afterwards. */
  async control(name: string, action: PluginAction): Promise<PluginStatus> {
    const plugin = this.get(name);
    switch (action) {
      case 'start':
        if (plugin.state === 'disabled') {
          throw haError(ErrorCodes.Conflict, `plugin "${name}" is disabled; enable it with: homectl plugins enable ${name}`, { plugin: name });
        }
        await plugin.start();
        break;
      case 'stop':
        await plugin.stop('stop', plugin.state === 'disabled' ? 'disabled' : 'stopped');
        break;
      case 'restart':
        if (plugin.state === 'disabled') {
          throw haError(ErrorCodes.Conflict, `plugin "${name}" is disabled; enable it with: homectl plugins enable ${name}`, { plugin: name });
        }
        await plugin.restart();
        break;
      case 'enable':
        this.enabled.setEnabled(name, true);
        if (plugin.state === 'disabled') {
          await plugin.stop('enable', 'stopped');
          await plugin.start();
        }
        break;
      case 'disable':
        this.enabled.setEnabled(name, false);
        await plugin.stop('disable', 'disabled');
        break;
    }
    return plugin.status();
  }

  private isEnabled(plugin: PluginSupervisor): boolean {
    return this.enabled.isEnabled(plugin.name) ?? plugin.record.manifest.enabled ?? true;
  }

  /** Plugins in start order (dependencies first; plugins added later at the end). */
  inStartOrder(): PluginSupervisor[] {
    const names = [...this.levels.flat()].filter((name) => this.plugins.has(name));
    for (const name of this.plugins.keys()) if (!names.includes(name)) names.push(name);
    return names.map((name) => this.plugins.get(name)!);
  }
}
