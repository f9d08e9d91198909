import * as path from 'node:path';
import { KernelEvents, type KernelStatus } from '../../protocol';
import type { SessionStore } from '../agent/sessions';
import { InFlightToolCalls } from '../agent/tool-calls';
import { CORE_SCOPE } from '../config';
import { ROOTS_SETTING, rootsOf } from '../knowledge';
import { PackageAdmin } from '../packages/package-admin';
import type { HealthDesk } from '../health/health-desk';
import type { DataTree } from '../paths';
import type { Recall } from '../recall/recall';
import { bindKernelServices, interceptPriorityMessage, type KernelServices } from '../sdk-server/bind';
import { admitClientMethods } from '../sdk-server/client-methods';
import { subscribeDeclared } from '../sdk-server/event-methods';
import { PluginRouter } from '../supervisor/plugin-router';
import { Supervisor } from '../supervisor/supervisor';
import type { FoundPlugins } from './find-plugins';
import type { KernelLlm } from './open-providers';
import type { UsageLedger } from '../llm/usage-ledger';
import type { KernelLog } from '../logs/kernel-log';
import { openAsks } from './open-asks';
import type { Settings } from './open-settings';
import type { Infrastructure } from './start-infrastructure';
import { KERNEL_VERSION } from './version';

/** What the kernel's SDK methods reach besides the supervisor's own parts. */
export interface ServedParts {
  sessions: SessionStore;
  recall: Recall;
  llm: KernelLlm;
  usage: UsageLedger;
  logs: KernelLog;
  /** The kernel's status now (asked for only once plugins run, when every part exists). */
  status(): KernelStatus;
  /** The kernel's side of the health checks. */
  health: HealthDesk;
}

/** The plugins under supervision, how installs reach them, and how the agent's stages, tools and outputs reach them. */
export interface SupervisedPlugins {
  supervisor: Supervisor;
  packages: PackageAdmin;
  router: PluginRouter;
  /** What every plugin's SDK methods reach. */
  services: KernelServices;
}

/** Puts the found plugins under a supervisor (not started yet) whose plugins reach the kernel through the SDK methods. */
export function supervisePlugins(found: FoundPlugins, tree: DataTree, settings: Settings, infra: Infrastructure, served: ServedParts): SupervisedPlugins {
  const { config } = settings;
  const { bus, log } = infra;
  const pluginDataDir = (name: string): string => path.join(tree.pluginData, name);
  const supervisor = new Supervisor(
    found.plugins,
    found.problems,
    infra.policy,
    {
      bus,
      log,
      kernelVersion: KERNEL_VERSION,
      dataDir: tree.data,
      runDir: tree.run,
      pluginDataDir,
      // Called from the first plugin start on, when `services` below exists.
      bindKernelServices: (plugin, connection) => bindKernelServices(connection, plugin, services),
      intercept: (plugin, message) => interceptPriorityMessage(plugin, message, services),
      onDeclared: (plugin, declaration) => {
        admitClientMethods(plugin, declaration);
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
  for (const [name, reason] of found.refused) supervisor.refuse(name, reason);
  const packages = new PackageAdmin({
    supervisor,
    config,
    pluginDir: settings.paths.pluginDir,
    pluginDataDir,
    kernelVersion: KERNEL_VERSION,
    skillsChanged: (event) => bus.publish(KernelEvents.SkillPackagesChanged, 'kernel', event),
  });
  const router = new PluginRouter(supervisor, log);
  const services: KernelServices = {
    config,
    bus,
    io: infra.io,
    status: served.status,
    logs: served.logs,
    log,
    usage: served.usage,
    supervisor,
    packages,
    recall: () => served.recall.queries,
    // The file tools' roots as they read them now, and the plugin's own files (the page's upload waits there).
    knowledgeSources: (plugin) => [...rootsOf(config.getValue(ROOTS_SETTING.scope, ROOTS_SETTING.key), tree.data), pluginDataDir(plugin)],
    llm: () => served.llm,
    sessions: served.sessions,
    toolCalls: new InFlightToolCalls(),
    asks: openAsks(bus, infra.io, served.sessions, supervisor, router),
    health: served.health,
  };
  return { supervisor, packages, router, services };
}
