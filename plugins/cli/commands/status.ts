// homectl status: is homed up, since when, and how are its plugins.
import { SocketMethods, type KernelStatus } from '../../../protocol';
import { formatDurationBrief } from '../../../protocol/units';
import { formatBytes } from './format';
import { renderTable } from './table';
import { printJson, type Command } from './types';

/** Renders the kernel status as key/value lines. */
export function renderStatus(s: KernelStatus, socketPath: string): string {
  return renderTable([
    ['homed', `${s.version}, pid ${s.pid}, up ${formatDurationBrief(s.uptime_ms)}`],
    ['plugins', `${s.plugins.ready} ready / ${s.plugins.enabled} enabled / ${s.plugins.total} known`],
    ['turns', `${s.turns.running} running, ${s.turns.waiting} waiting`],
    ['data dir', s.dataDir],
    ['socket', socketPath],
    ['memory', formatBytes(s.rss_bytes)],
    ['node', s.node],
  ]);
}

/** Builds `status`; it shows the socket it reached, so it needs the path. */
export function statusCommand(socketPath: string): Command {
  return {
    words: 'status',
    args: [],
    options: { json: { type: 'boolean' } },
    flags: '[--json]',
    summary: 'kernel version, pid, uptime, data dir, plugins ready/total',
    async run(_args, values, ctx) {
      const status = await ctx.request<KernelStatus>(SocketMethods.KernelStatus);
      if (values['json']) printJson(ctx, status);
      else ctx.print(renderStatus(status, socketPath));
    },
  };
}
