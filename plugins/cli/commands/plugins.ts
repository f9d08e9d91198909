// homectl plugins list|info|start|stop|restart|enable|disable|logs.
import { PLUGIN_ACTIONS, SocketApi, type PluginAction, type PluginInfo, type PluginStatus } from '../../../protocol';
import { formatBytes, formatDuration } from '../../../protocol/format';
import { parseCountFlag } from './flags';
import { NONE, formatLastExit, formatPercent, formatUptime } from './format';
import { renderLogLines } from './log-lines';
import { renderTable } from './table';
import { HomedUnreachableError } from '../client';
import { CLI_PLUGIN_NAME } from '../settings';
import { printJson, type Command, type CommandContext } from './types';

/** How long `plugins restart cli` waits for the socket to answer again. */
const SOCKET_RESTART_WAIT_MS = 30_000;

const json = { json: { type: 'boolean' } } as const;

const PAST_TENSE: Record<PluginAction, string> = {
  start: 'started',
  stop: 'stopped',
  restart: 'restarted',
  enable: 'enabled',
  disable: 'disabled',
};

/** Renders plugin statuses as the `plugins list` table. */
export function renderPluginTable(plugins: PluginStatus[], now: number = Date.now()): string {
  const rows = plugins.map((p) => [
    p.name,
    p.kind,
    p.state,
    p.pid === null ? NONE : String(p.pid),
    formatUptime(p.uptime_ms, p.pid),
    String(p.restarts),
    p.rss_bytes === null ? NONE : formatBytes(p.rss_bytes),
    formatPercent(p.cpu_percent),
    formatLastExit(p.last_exit, now),
  ]);
  const table = renderTable(rows, ['NAME', 'KIND', 'STATE', 'PID', 'UPTIME', 'RESTARTS', 'RSS', 'CPU', 'LAST EXIT']);
  const warnings = plugins.flatMap((p) => (p.runs_as_homed_user ? [`warning: plugin "${p.name}" has no uid of its own: ${p.runs_as_homed_user}`] : []));
  return warnings.length ? `${table}\n\n${warnings.join('\n')}` : table;
}

/** Whose uid a plugin's process runs under, in words. */
function describeRunsAs(p: PluginInfo): string {
  if (p.kind === 'builtin') return 'the homed user (a built-in plugin is trusted)';
  if (p.runs_as_homed_user) return 'the homed user: it has no uid of its own (see own-uid below)';
  return 'a uid of its own (see own-uid below)';
}

/** Renders one plugin in detail for `plugins info`. */
export function renderPluginInfo(p: PluginInfo, now: number = Date.now()): string {
  const list = (items: string[]): string => (items.length ? items.join(', ') : NONE);
  const facts = renderTable([
    ['name', p.name],
    ['version', p.version],
    ['kind', p.kind],
    ['state', p.detail ? `${p.state} (${p.detail})` : p.state],
    ['enabled', p.enabled ? 'yes' : 'no'],
    ['pid', p.pid === null ? NONE : String(p.pid)],
    ['uptime', formatUptime(p.uptime_ms, p.pid)],
    ['restarts', String(p.restarts)],
    ['rss', p.rss_bytes === null ? NONE : formatBytes(p.rss_bytes)],
    ['cpu', formatPercent(p.cpu_percent)],
    ['last exit', formatLastExit(p.last_exit, now)],
    ['denied calls', String(p.denied_calls)],
    ['timeouts', String(p.timeouts)],
    ['folder', p.dir],
    ['data folder', p.dataDir],
    ['description', p.manifest.description ?? NONE],
    ['runs as', describeRunsAs(p)],
    ['permissions', list(p.permissions)],
    ['tools', list(p.tools)],
    ['stages', list(p.stages)],
    ['subscriptions', list(p.subscriptions)],
  ]);
  if (p.sandbox.length === 0) return facts;
  const walls = renderTable(
    p.sandbox.map((w) => [w.wall, w.active ? 'yes' : 'no', w.note]),
    ['WALL', 'ACTIVE', 'NOTE'],
  );
  return `${facts}\n\nsandbox\n${walls}`;
}

const list: Command = {
  words: 'plugins list',
  args: [],
  options: json,
  flags: '[--json]',
  summary: 'every plugin with its state, pid, uptime, restarts, memory and cpu',
  async run(_args, values, ctx) {
    const { plugins } = await ctx.call(SocketApi.PluginsList, {});
    if (values['json']) printJson(ctx, plugins);
    else ctx.print(renderPluginTable(plugins));
  },
};

const info: Command = {
  words: 'plugins info',
  args: ['NAME'],
  options: json,
  flags: '[--json]',
  summary: 'one plugin in detail: manifest, permissions, tools, sandbox',
  async run([name], values, ctx) {
    const { plugin } = await ctx.call(SocketApi.PluginsInfo, { name: name! });
    if (values['json']) printJson(ctx, plugin);
    else ctx.print(renderPluginInfo(plugin));
  },
};

const logs: Command = {
  words: 'plugins logs',
  args: ['NAME'],
  options: { ...json, lines: { type: 'string', short: 'n' } },
  flags: '[--lines N] [--json]',
  summary: "a plugin's recent log lines (default 100)",
  async run([name], values, ctx) {
    const count = parseCountFlag('lines', values['lines'], 10000);
    const { lines } = await ctx.call(SocketApi.PluginsLogs, { name: name!, ...(count === undefined ? {} : { lines: count }) });
    if (values['json']) printJson(ctx, lines);
    else if (lines.length) ctx.print(renderLogLines(lines));
  },
};

/** Builds `plugins start|stop|restart|enable|disable NAME`. */
function controlCommand(action: PluginAction): Command {
  return {
    words: `plugins ${action}`,
    args: ['NAME'],
    options: json,
    flags: '[--json]',
    summary: `${action} a plugin; answers once done`,
    async run([name], values, ctx) {
      const plugin =
        name === CLI_PLUGIN_NAME && action === 'restart'
          ? await restartSocketPlugin(ctx)
          : (await ctx.call(SocketApi.PluginsControl, { name: name!, action })).plugin;
      if (values['json']) printJson(ctx, plugin);
      else ctx.print(describeControl(action, plugin));
    },
  };
}

/**
 * Restarting the cli plugin closes the very connection the answer would come back on, so the
 * lost connection is expected: wait for the new socket to answer, then report the new process.
 */
async function restartSocketPlugin(ctx: CommandContext): Promise<PluginStatus> {
  try {
    return (await ctx.call(SocketApi.PluginsControl, { name: CLI_PLUGIN_NAME, action: 'restart' })).plugin;
  } catch (error) {
    if (!(error instanceof HomedUnreachableError) || error.reason !== 'lost') throw error;
  }
  const deadline = Date.now() + SOCKET_RESTART_WAIT_MS;
  for (;;) {
    try {
      const { plugin } = await ctx.call(SocketApi.PluginsInfo, { name: CLI_PLUGIN_NAME });
      if (plugin.state === 'ready') return plugin;
    } catch (error) {
      if (!(error instanceof HomedUnreachableError) || Date.now() > deadline) throw error;
    }
    if (Date.now() > deadline)
      throw new Error(`the ${CLI_PLUGIN_NAME} plugin did not come back within ${formatDuration(SOCKET_RESTART_WAIT_MS)}; see homectl status`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function describeControl(action: PluginAction, p: PluginStatus): string {
  const pid = p.pid === null ? '' : `, pid ${p.pid}`;
  return `plugin "${p.name}" ${PAST_TENSE[action]}: now ${p.state}${pid}`;
}

/** Every `plugins …` command. */
export const pluginCommands: Command[] = [list, info, ...PLUGIN_ACTIONS.map(controlCommand), logs];
