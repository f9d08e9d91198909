// homed's side of its systemd service: READY=1 once every enabled plugin is ready, then STATUS= and WATCHDOG=1
// while it runs (health/watchdog.ts), STOPPING=1 on the way out. Outside systemd each step does nothing.
import type { Kernel } from '../kernel';
import { LoopLag } from '../health/loop-lag';
import { systemdNotifier, type Notifier } from './notify';
import { statusLine } from './status-line';
import { keepAliveMs, loadWatchdogPolicy, Watchdog } from '../health/watchdog';

/** What homed tells systemd, from start to stop. */
export class ServiceLink {
  private watchdog: Watchdog | undefined;

  private constructor(
    private readonly kernel: Kernel,
    private readonly notifier: Notifier | null,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** The link for this process: live when systemd gave it NOTIFY_SOCKET. */
  static open(kernel: Kernel, env: NodeJS.ProcessEnv = process.env): ServiceLink {
    return new ServiceLink(kernel, systemdNotifier(env, kernel.log), env);
  }

  /** READY=1 with the first STATUS= line, then the watchdog (with the event-loop hook) when systemd asks for one. */
  async ready(): Promise<void> {
    if (!this.notifier) return;
    const policy = loadWatchdogPolicy(this.env);
    const keepAlive = keepAliveMs(this.env);
    if (keepAlive !== null) {
      this.kernel.health.hooks.register(new LoopLag(policy.lagBoundMs, this.kernel.health.loopWindow()));
      this.kernel.log.info({ keepAliveMs: keepAlive, lagBoundMs: policy.lagBoundMs }, 'feeding the systemd watchdog while healthy');
    }
    const status = (): string => statusLine(this.kernel.status(), this.kernel.supervisor.list());
    await this.notifier.send({ READY: '1', STATUS: status() });
    this.watchdog = new Watchdog({
      notifier: this.notifier,
      health: this.kernel.health.hooks,
      status,
      keepAliveMs: keepAlive,
      statusEveryMs: policy.statusEveryMs,
      log: this.kernel.log,
    });
    this.watchdog.start();
  }

  /** STOPPING=1: systemd then waits for homed to end instead of expecting keep-alives. */
  async stopping(): Promise<void> {
    this.watchdog?.stop();
    if (this.notifier) await this.notifier.send({ STOPPING: '1', STATUS: 'stopping: ending plugins in reverse order' });
  }
}
