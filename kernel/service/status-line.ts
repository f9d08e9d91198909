// The STATUS= line a person reads in `systemctl status homed`.
import type { KernelStatus, PluginStatus } from '../../protocol';

/**
 * `ready: 9 plugins, 0 turns running; health ok`: or which enabled plugins are not ready and how many messages wait;
 * the health word is the latest health report's overall severity (none before the first report).
 */
export function statusLine(status: KernelStatus, plugins: readonly Pick<PluginStatus, 'name' | 'state'>[]): string {
  const { ready, enabled } = status.plugins;
  const notReady = plugins.filter((p) => p.state !== 'ready' && p.state !== 'disabled');
  const pluginPart =
    notReady.length === 0
      ? `${ready} ${plural(ready, 'plugin')}`
      : `${ready} of ${enabled} plugins (${notReady.map((p) => `${p.name}: ${p.state}`).join(', ')})`;
  const { running, waiting } = status.turns;
  const turnPart = `${running} ${plural(running, 'turn')} running${waiting > 0 ? `, ${waiting} waiting` : ''}`;
  const report = status.health?.report;
  const healthPart = report ? `; health ${report.overall}` : '';
  return `ready: ${pluginPart}, ${turnPart}${healthPart}`;
}

function plural(count: number, word: string): string {
  return count === 1 ? word : `${word}s`;
}
