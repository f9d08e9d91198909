import pidusage from 'pidusage';
import { formatBytes } from '../../protocol/format';
import { limitsFor, type SupervisorPolicy } from './policy';
import type { PluginSupervisor } from './plugin-supervisor';

const MB = 1024 * 1024;

/** Polls every running plugin's RSS and CPU with pidusage and kills a plugin over its limits. */
export class ResourceWatch {
  private timer: NodeJS.Timeout | undefined;
  private readonly cpuOver = new Map<string, number>();
  private polling = false;

  constructor(
    private readonly policy: SupervisorPolicy,
    private readonly plugins: () => Iterable<PluginSupervisor>,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.poll(), this.policy.resources.pollMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** One round: measure every live plugin process, then enforce the limits. */
  async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const running = [...this.plugins()].filter((p) => p.process && p.process.pid > 0);
      if (running.length === 0) return;
      const stats = await pidusage(running.map((p) => p.process!.pid)).catch(() => ({}) as Record<number, pidusage.Status>);
      for (const plugin of running) {
        const proc = plugin.process;
        const stat = proc ? (stats as Record<number, pidusage.Status | undefined>)[proc.pid] : undefined;
        if (!proc || !stat) continue;
        plugin.usage = { rss: stat.memory, cpu: Math.round(stat.cpu * 10) / 10 };
        this.enforce(plugin, stat);
      }
    } finally {
      this.polling = false;
    }
  }

  private enforce(plugin: PluginSupervisor, stat: pidusage.Status): void {
    const limits = limitsFor(this.policy, plugin.name);
    const proc = plugin.process;
    if (!proc) return;
    if (limits.rssMb > 0 && stat.memory > limits.rssMb * MB) {
      proc.kill('rss-limit', `used ${formatBytes(stat.memory)} of memory, over its ${formatBytes(limits.rssMb * MB)} limit`);
      return;
    }
    if (limits.cpuPercent <= 0) return;
    const over = stat.cpu > limits.cpuPercent ? (this.cpuOver.get(plugin.name) ?? 0) + 1 : 0;
    this.cpuOver.set(plugin.name, over);
    if (over >= this.policy.resources.cpuOverSamples) {
      this.cpuOver.set(plugin.name, 0);
      proc.kill('cpu-limit', `used over ${limits.cpuPercent}% CPU for ${over} polls in a row`);
    }
  }
}
