import * as fs from 'node:fs';
import type { Logger } from 'pino';
import type { Message, MessageConnection } from 'vscode-jsonrpc';
import {
  InitializedNotification,
  KernelEvents,
  PROTOCOL_VERSION,
  type InitializeResult,
  type LastExit,
  type LogLevel,
  type PluginState,
  type PluginStateEvent,
  type PluginStatus,
} from '../../protocol';
import { formatDuration } from '../../protocol/format';
import type { EventBus } from '../events/bus';
import type { PluginRecord } from '../registry/discover';
import { RestartBackoff } from './backoff';
import { LogRing } from './log-ring';
import { PluginProcess, type ProcessExit } from './plugin-process';
import type { SupervisorPolicy } from './policy';
import { homedUserNote, planSandbox, prepareSandbox, type SandboxInput, type SandboxPlan } from './sandbox';
import type { SpawnOptions } from './spawn';

/** What a plugin's supervisor needs from the rest of the kernel. */
export interface SupervisorServices {
  bus: EventBus;
  log: Logger;
  kernelVersion: string;
  dataDir: string;
  runDir: string;
  /** The plugin's writable data folder (created on demand). */
  pluginDataDir(name: string): string;
  /** Binds the SDK methods for this plugin to its connection. */
  bindKernelServices(plugin: PluginSupervisor, connection: MessageConnection): void;
  /** Acts on a message ahead of the connection's queue (interrupts); true when consumed. */
  intercept(plugin: PluginSupervisor, message: Message): boolean;
  /** Records what the plugin declared at its handshake. */
  onDeclared(plugin: PluginSupervisor, declaration: InitializeResult): void;
  logLinesKept: number;
}

/** One plugin across its process lifetimes: state, restarts with backoff, the crash-loop breaker. */
export class PluginSupervisor {
  state: PluginState = 'stopped';
  /** When it entered its state (Date.now()). */
  stateSince = Date.now();
  restarts = 0;
  lastExit: LastExit | null = null;
  detail: string | null = null;
  deniedCalls = 0;
  timeouts = 0;
  usage: { rss: number; cpu: number } | null = null;
  process: PluginProcess | undefined;
  declaration: InitializeResult | undefined;
  /**
   * Its block in the agent's system prompt (prompt/block), in memory; '' when none. Each new process starts
   * without one (it sets it again), so a block never outlives the process that set it by more than a restart.
   */
  promptBlock = '';
  /** The walls its current (or last) process was started in; null for a trusted plugin. */
  sandbox: SandboxPlan | null = null;
  readonly logs: LogRing;
  /** Its writable data folder. */
  readonly dataDir: string;
  private readonly backoff: RestartBackoff;
  private restartTimer: NodeJS.Timeout | undefined;
  private healthyTimer: NodeJS.Timeout | undefined;
  private readonly log: Logger;

  constructor(
    readonly record: PluginRecord,
    private readonly policy: SupervisorPolicy,
    private readonly services: SupervisorServices,
  ) {
    this.backoff = new RestartBackoff(policy.restart);
    this.logs = new LogRing(services.logLinesKept);
    this.dataDir = services.pluginDataDir(record.name);
    this.log = services.log.child({ plugin: record.name });
  }

  get name(): string {
    return this.record.name;
  }

  /** Starts the plugin unless a process already runs; resolves once it is ready or has failed to get there. */
  async start(): Promise<void> {
    if (this.process) return;
    this.cancelRestart();
    await this.launch();
  }

  /** Stops the plugin in order and leaves it `stopped` (or `disabled`). */
  async stop(reason = 'stop', finalState: 'stopped' | 'disabled' = 'stopped'): Promise<void> {
    this.cancelRestart();
    const current = this.process;
    if (current) {
      this.setState('stopping');
      const exit = await current.stop(reason);
      this.note('info', `stopped: ${exit.detail}`);
      this.services.bus.publish(KernelEvents.PluginStopped, 'kernel', { name: this.name, reason, code: exit.code, signal: exit.signal });
    }
    this.setState(finalState);
    this.detail = null;
  }

  /** A person's restart: forgets the crash history, even of a `failed` plugin. */
  async restart(): Promise<void> {
    await this.stop('restart');
    this.backoff.reset();
    await this.start();
  }

  /** Marks the plugin failed without starting it (bad dependency and the like). */
  markFailed(detail: string): void {
    this.setState('failed');
    this.detail = detail;
    this.note('error', detail);
  }

  markDisabled(): void {
    this.setState('disabled');
  }

  /** Logs a line under the plugin's name (its own fields as JSON fields) and keeps it for plugins/logs. */
  note(level: LogLevel, msg: string, stream = 'kernel', fields?: Record<string, unknown>): void {
    const own = fields ? pluginFields(fields) : undefined;
    this.logs.push(own ? { at: Date.now(), level, stream, msg, fields: own } : { at: Date.now(), level, stream, msg });
    this.log[level]({ ...own, stream }, msg);
  }

  status(): PluginStatus {
    const proc = this.process;
    return {
      name: this.name,
      kind: this.record.kind,
      version: this.record.manifest.version,
      state: this.state,
      enabled: this.state !== 'disabled',
      pid: proc ? proc.pid : null,
      restarts: this.restarts,
      uptime_ms: proc && this.state !== 'starting' ? Date.now() - proc.startedAt : 0,
      rss_bytes: proc ? (this.usage?.rss ?? null) : null,
      cpu_percent: proc ? (this.usage?.cpu ?? null) : null,
      last_exit: this.lastExit,
      detail: this.detail,
      denied_calls: this.deniedCalls,
      timeouts: this.timeouts + (proc?.channel.timeouts ?? 0),
      ...this.homedUser(),
    };
  }

  /** For a third-party plugin without a uid of its own, why (from the walls it was started in, or would be). */
  private homedUser(): { runs_as_homed_user?: string } {
    if (this.record.kind === 'builtin') return {};
    const note = homedUserNote(this.sandbox ?? planSandbox(this.sandboxInput()));
    return note === null ? {} : { runs_as_homed_user: note };
  }

  private async launch(): Promise<void> {
    this.promptBlock = '';
    this.setState('starting');
    const pluginData = this.dataDir;
    fs.mkdirSync(pluginData, { recursive: true });
    const spawnOptions: SpawnOptions = { cwd: pluginData };
    this.sandbox = null;
    if (this.record.kind !== 'builtin') {
      const input = this.sandboxInput();
      const plan = planSandbox(input);
      try {
        prepareSandbox(plan, input);
      } catch (error) {
        this.markFailed(`could not prepare its sandbox: ${(error as Error).message}`);
        return;
      }
      this.sandbox = plan;
      spawnOptions.sandbox = plan;
    }
    const proc = new PluginProcess(this.name, this.policy, spawnOptions, {
      bind: (connection) => this.services.bindKernelServices(this, connection),
      intercept: (message) => this.services.intercept(this, message),
      onOutput: (stream, line) => this.note(stream === 'stdout' ? 'info' : 'warn', line, stream),
      onUnresponsive: () => {
        if (this.process !== proc) return;
        this.setState('unresponsive');
        this.note('warn', `did not answer a heartbeat within ${formatDuration(this.policy.heartbeat.timeoutMs)}`);
      },
      onResponsive: () => {
        if (this.process === proc && this.state === 'unresponsive') this.setState('ready');
      },
    });
    this.process = proc;
    this.usage = null;
    void proc.exited.then((exit) => this.onExit(proc, exit));
    this.services.bus.publish(KernelEvents.PluginStarted, 'kernel', { name: this.name, pid: proc.pid });
    let declaration: InitializeResult;
    try {
      declaration = await proc.handshake({
        protocolVersion: PROTOCOL_VERSION,
        name: this.name,
        entry: this.record.entry,
        kind: this.record.kind,
        permissions: this.record.manifest.permissions ?? [],
        paths: { data: this.services.dataDir, plugin: this.record.dir, pluginData, run: this.services.runDir },
        kernelVersion: this.services.kernelVersion,
      });
    } catch (error) {
      this.note('error', `handshake failed: ${(error as Error).message}`);
      await proc.exited;
      return;
    }
    if (this.process !== proc) return;
    this.declaration = declaration;
    this.services.onDeclared(this, declaration);
    proc.channel.notify(InitializedNotification, {});
    this.setState('ready');
    this.detail = null;
    proc.startHeartbeat();
    this.healthyTimer = setTimeout(() => this.backoff.markHealthy(), this.policy.restart.resetAfterMs);
    this.healthyTimer.unref();
    this.services.bus.publish(KernelEvents.PluginReady, 'kernel', { name: this.name, pid: proc.pid });
  }

  /** What the sandbox of this (untrusted) plugin is planned from. */
  sandboxInput(): SandboxInput {
    return {
      name: this.name,
      kind: this.record.kind,
      pluginDir: this.record.dir,
      pluginData: this.dataDir,
      dataDir: this.services.dataDir,
      permissions: this.record.manifest.permissions ?? [],
      maxOpenFiles: this.policy.sandbox.maxOpenFiles,
    };
  }

  private onExit(proc: PluginProcess, exit: ProcessExit): void {
    if (this.process !== proc) return;
    this.process = undefined;
    this.usage = null;
    this.timeouts += proc.channel.timeouts;
    if (this.healthyTimer) clearTimeout(this.healthyTimer);
    this.services.bus.unsubscribe(this.name);
    const at = Date.now();
    this.lastExit = { code: exit.code, signal: exit.signal, reason: exit.reason, at, detail: exit.detail };
    if (exit.reason === 'stopped' || this.state === 'stopping') return;
    this.note('error', `process ${proc.pid} ${exit.detail}`);
    this.services.bus.publish(KernelEvents.PluginCrashed, 'kernel', { name: this.name, ...this.lastExit });
    const delay = this.backoff.recordExit(at);
    if (delay === null) {
      const { exits, withinMs } = this.policy.restart.loop;
      this.markFailed(
        `exited unexpectedly ${exits} times within ${formatDuration(withinMs)} (last: ${exit.detail}); ` +
          `fix it and run: homectl plugins restart ${this.name}`,
      );
      this.services.bus.publish(KernelEvents.PluginFailed, 'kernel', { name: this.name, reason: exit.reason });
      return;
    }
    this.restarts += 1;
    this.setState('backoff');
    this.detail = `restarting in ${formatDuration(delay)} after: ${exit.detail}`;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      void this.launch();
    }, delay);
  }

  private cancelRestart(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
  }

  private setState(state: PluginState): void {
    const previous = this.state;
    if (previous === state) return;
    this.state = state;
    this.stateSince = Date.now();
    this.log.debug({ state }, 'state');
    const event: PluginStateEvent = { name: this.name, state, previous, pid: this.process?.pid ?? null };
    this.services.bus.publish(KernelEvents.PluginState, 'kernel', event);
  }
}

/** Keys a line's own fields may not take (pino's, and the kernel's names for where a line came from). */
const RESERVED_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'plugin', 'stream']);

/** A plugin's fields as the line's JSON fields; one named like the line's own keys is kept as `field_<name>`. */
function pluginFields(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [RESERVED_FIELDS.has(key) ? `field_${key}` : key, value]));
}
