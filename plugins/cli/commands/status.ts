// homectl status: is homed up, since when, and how are its plugins.
import { SocketApi, type KernelStatus } from '../../../protocol';
import { formatBytes, formatDuration } from '../../../protocol/format';
import { renderTable } from './table';
import { printJson, type Command } from './types';

/** Renders the kernel status as key/value lines, then its health: overall, then each finding. */
export function renderStatus(s: KernelStatus, socketPath: string): string {
  const table = renderTable([
    ['homed', `${s.version}, pid ${s.pid}, up ${formatDuration(s.uptime_ms)}`],
    ['plugins', `${s.plugins.ready} ready / ${s.plugins.enabled} enabled / ${s.plugins.total} known`],
    ['turns', `${s.turns.running} running, ${s.turns.waiting} waiting`],
    ['data dir', s.dataDir],
    ['socket', socketPath],
    ['memory', formatBytes(s.rss_bytes)],
    ['node', s.node],
    ['health', describeHealth(s)],
  ]);
  const findings = s.health?.report?.findings ?? [];
  return findings.length === 0 ? table : `${table}\n${renderTable(findings.map((f) => [`  ${f.severity}`, `${f.title}: ${f.detail}`]))}`;
}

/** `ok (checked 12 s ago)`, `no report yet`, and what the watchdog counts as failing. */
function describeHealth(s: KernelStatus): string {
  const report = s.health?.report;
  const word = report
    ? `${report.overall} (checked ${formatDuration(Math.max(0, Date.now() - Date.parse(report.at)))} ago)`
    : 'no report yet (plugin healthcheck)';
  const failing = s.health?.watchdog.failing ?? [];
  return failing.length === 0 ? word : `${word}; unhealthy for the watchdog: ${failing.map((f) => `${f.name}: ${f.reason}`).join('; ')}`;
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
      const status = await ctx.call(SocketApi.KernelStatus, {});
      if (values['json']) printJson(ctx, status);
      else ctx.print(renderStatus(status, socketPath));
    },
  };
}
