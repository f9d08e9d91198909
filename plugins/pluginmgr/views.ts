// What the agent's tools answer: short objects the LLM can relay, without the kernel's bookkeeping.
import type { PluginInfo, PluginStatus } from '../../protocol';
import type { PluginmgrInstallAnswer } from '../../protocol/pluginmgr';

/** plugin_install's answer. */
export interface InstallView {
  installed: boolean;
  name: string;
  version: string;
  /** `js`, `lua` or `skill`. */
  kind: string;
  author?: string;
  description?: string;
  /** What the plugin may do. */
  permissions_granted: string[];
  /** Its state once started (`ready` when all went well). */
  state: string;
  /** Why it is not ready, when it is not. */
  detail?: string;
  upgraded_from?: string;
  /** Tools it now gives the agent. */
  tools?: string[];
  sha256: string;
  /** For a skill package: the trust report the person was shown, for the answer to relay. */
  trust_report?: string;
}

/** Builds plugin_install's answer from the install result and, once known, the plugin's tools. */
export function viewInstall(answer: PluginmgrInstallAnswer, info: PluginInfo | undefined): InstallView {
  const m = answer.manifest;
  const view: InstallView = {
    installed: answer.installed,
    name: m.name,
    version: m.version,
    kind: answer.kind,
    permissions_granted: m.permissions ?? [],
    state: info?.state ?? answer.plugin?.state ?? 'unknown',
    sha256: answer.package.sha256,
  };
  if (m.author !== undefined) view.author = m.author;
  if (m.description !== undefined) view.description = m.description;
  const detail = info?.detail ?? answer.plugin?.detail;
  if (detail) view.detail = detail;
  if (answer.upgradedFrom !== undefined) view.upgraded_from = answer.upgradedFrom;
  if (info) view.tools = info.tools;
  if (answer.skillReport) view.trust_report = answer.skillReport.report;
  return view;
}

/** One line of plugin_list. */
export interface ListedPlugin {
  name: string;
  version: string;
  /** `builtin`, `js`, `lua` or `skill`. */
  kind: string;
  state: string;
  enabled: boolean;
}

/** plugin_list's answer. */
export function viewList(plugins: PluginStatus[]): { plugins: ListedPlugin[] } {
  return { plugins: plugins.map((p) => ({ name: p.name, version: p.version, kind: p.kind, state: p.state, enabled: p.enabled })) };
}

/** plugin_info's answer: what it is, what it may do and give, how it runs. */
export function viewInfo(p: PluginInfo): Record<string, unknown> {
  return {
    name: p.name,
    version: p.version,
    kind: p.kind,
    state: p.state,
    ...(p.detail ? { detail: p.detail } : {}),
    enabled: p.enabled,
    ...(p.manifest.author === undefined ? {} : { author: p.manifest.author }),
    ...(p.manifest.description === undefined ? {} : { description: p.manifest.description }),
    permissions: p.permissions,
    tools: p.tools,
    stages: p.stages,
    restarts: p.restarts,
    denied_calls: p.denied_calls,
    ...(p.last_exit ? { last_exit: p.last_exit.reason } : {}),
    ...(p.sandbox.length ? { sandbox: p.sandbox.map((w) => `${w.wall}: ${w.active ? 'active' : 'not active'}`) } : {}),
  };
}
