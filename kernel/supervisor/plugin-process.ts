import type { ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import type { Message, MessageConnection } from 'vscode-jsonrpc';
import {
  ErrorCodes,
  ExitNotification,
  InitializeRequest,
  PingRequest,
  PROTOCOL_VERSION,
  ShutdownRequest,
  haError,
  type InitializeParams,
  type InitializeResult,
} from '../../protocol';
import { formatDuration } from '../../protocol/format';
import { createWireConnection, WIRE_ERROR_EXIT_CODE, WIRE_ERROR_MARK, WireViolation, wireLimitsEnv } from '../../protocol/runtime/wire';
import { PluginChannel } from './channel';
import { forEachLine } from './log-ring';
import type { SupervisorPolicy } from './policy';
import { signalPlugin, type RunAs } from './signal';
import { spawnPluginHost, type SpawnOptions } from './spawn';

/** How a plugin process ended. */
export interface ProcessExit {
  code: number | null;
  signal: string | null;
  /**
   * `stopped` for an ordered stop; otherwise why it died (`crash`, `exited`, `handshake-timeout`, `unresponsive`,
   * `rss-limit`, `wire-error` when its host could not read a frame from the kernel, …).
   */
  reason: string;
  /** Words for a person. */
  detail: string;
}

/** What one plugin process tells its supervisor. */
export interface ProcessHooks {
  /** Binds the kernel's services to the connection before it starts listening. */
  bind(connection: MessageConnection): void;
  onOutput(stream: 'stdout' | 'stderr', line: string): void;
  onUnresponsive(): void;
  onResponsive(): void;
  /** Handles a message ahead of the connection's queue (interrupts); true when consumed. */
  intercept?(message: Message): boolean;
}

// How long an exit for a wire error waits for the host's last stderr line, which names the reason.
const STDERR_DRAIN_MS = 1000;

/** One lifetime of one plugin's host process: spawn, handshake, heartbeat, stop or kill. */
export class PluginProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** The uid it runs as when it has one of its own (signals go to it as that uid where homed lacks CAP_KILL). */
  private readonly runAs: RunAs | null;
  readonly startedAt = Date.now();
  readonly channel: PluginChannel;
  readonly exited: Promise<ProcessExit>;
  private killReason: { reason: string; detail: string } | undefined;
  private stopping = false;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private pingTimers: NodeJS.Timeout[] = [];
  private pingInFlight = false;
  private seq = 0;
  // What the host said on stderr before it exited for a wire error.
  private wireError: string | undefined;

  constructor(
    readonly name: string,
    private readonly policy: SupervisorPolicy,
    spawnOptions: SpawnOptions,
    private readonly hooks: ProcessHooks,
  ) {
    // The host reads and writes by the kernel's caps, so neither end sends what the other refuses.
    this.child = spawnPluginHost({ ...spawnOptions, env: { ...spawnOptions.env, ...wireLimitsEnv(policy.wire) } });
    this.pid = this.child.pid ?? -1;
    const { uid, gid } = spawnOptions.sandbox ?? {};
    this.runAs = uid != null && gid != null ? { uid, gid } : null;
    const wire = this.child.stdio[3] as Socket;
    const intercept = hooks.intercept?.bind(hooks);
    const { connection, reader } = createWireConnection(wire, wire, policy.wire, intercept);
    this.channel = new PluginChannel(name, connection, policy.requestMs, policy.wire.maxBodyBytes);
    reader.onError((error) => {
      if (error instanceof WireViolation) this.kill('protocol-violation', `sent a bad frame: ${error.message}`);
    });
    if (this.child.stdout) forEachLine(this.child.stdout, (line) => hooks.onOutput('stdout', line));
    if (this.child.stderr) {
      forEachLine(this.child.stderr, (line) => {
        if (line.startsWith(WIRE_ERROR_MARK)) this.wireError = line.slice(WIRE_ERROR_MARK.length);
        hooks.onOutput('stderr', line);
      });
    }
    hooks.bind(connection);
    connection.listen();
    this.exited = new Promise((resolve) => {
      this.child.once('error', (error) => {
        this.killReason ??= { reason: 'spawn-failed', detail: `could not start its process: ${error.message}` };
        // A process that never started emits no 'exit'.
        if (this.child.pid === undefined) this.child.emit('exit', null, null);
      });
      this.child.once('exit', (code, signal) => {
        this.stopHeartbeat();
        // After a wire error the reason is the host's last stderr line, which may still be on its way.
        void (code === WIRE_ERROR_EXIT_CODE ? this.stderrRead() : Promise.resolve()).then(() => {
          const exit = this.describeExit(code, signal);
          this.channel.close(
            haError(ErrorCodes.PluginCrashed, `plugin "${name}" exited (${exit.detail}) before answering`, {
              plugin: name,
              exitCode: code,
              signal,
              reason: exit.reason,
            }),
          );
          resolve(exit);
        });
      });
    });
  }

  /** Sends `initialize` and waits for the declaration; a late, failed or wrong answer kills the process. */
  async handshake(params: InitializeParams): Promise<InitializeResult> {
    let result: InitializeResult;
    try {
      result = await this.channel.call(InitializeRequest, params, this.policy.handshakeMs);
    } catch (error) {
      const timedOut = (error as { code?: number }).code === ErrorCodes.RequestTimeout;
      const detail = timedOut
        ? `did not answer initialize within ${formatDuration(this.policy.handshakeMs)}`
        : `failed to initialize: ${(error as Error).message}`;
      this.kill(timedOut ? 'handshake-timeout' : 'initialize-failed', detail);
      throw error;
    }
    if (result.protocolVersion !== PROTOCOL_VERSION) {
      const detail = `speaks protocol ${result.protocolVersion}, the kernel speaks ${PROTOCOL_VERSION}`;
      this.kill('protocol-mismatch', detail);
      throw new Error(`plugin "${this.name}" ${detail}`);
    }
    return result;
  }

  /** Pings every interval; no answer within the timeout marks it unresponsive, and after killAfter it is killed. */
  startHeartbeat(): void {
    this.heartbeatTimer = setInterval(() => this.ping(), this.policy.heartbeat.intervalMs);
    this.heartbeatTimer.unref();
  }

  private ping(): void {
    if (this.pingInFlight) return;
    this.pingInFlight = true;
    const { timeoutMs, killAfterMs } = this.policy.heartbeat;
    let unresponsive = false;
    this.pingTimers = [
      setTimeout(() => {
        unresponsive = true;
        this.hooks.onUnresponsive();
      }, timeoutMs),
      setTimeout(() => this.kill('unresponsive', `did not answer a heartbeat for ${formatDuration(killAfterMs)}`), killAfterMs),
    ];
    this.channel.call(PingRequest, { seq: ++this.seq }, killAfterMs + 1000).then(
      () => {
        this.clearPingTimers();
        this.pingInFlight = false;
        if (unresponsive) this.hooks.onResponsive();
      },
      () => this.clearPingTimers(),
    );
  }

  private clearPingTimers(): void {
    for (const timer of this.pingTimers) clearTimeout(timer);
    this.pingTimers = [];
  }

  private stopHeartbeat(): void {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.clearPingTimers();
  }

  /** Ends the process at once (SIGKILL to its group and tree), remembering why. */
  kill(reason: string, detail: string): void {
    this.killReason ??= { reason, detail };
    this.stopHeartbeat();
    signalPlugin(this.pid, 'SIGKILL', this.runAs);
  }

  /** Ordered stop: `shutdown` then `exit`; SIGTERM when that is ignored; SIGKILL after the grace period. */
  async stop(reason: string): Promise<ProcessExit> {
    this.stopping = true;
    this.stopHeartbeat();
    const { requestMs, killGraceMs } = this.policy.shutdown;
    try {
      await this.channel.call(ShutdownRequest, { reason }, requestMs);
      this.channel.notify(ExitNotification, {});
      if (await this.exitsWithin(killGraceMs)) return this.exited;
    } catch {
      // no orderly answer: fall through to signals
    }
    signalPlugin(this.pid, 'SIGTERM', this.runAs);
    if (await this.exitsWithin(killGraceMs)) return this.exited;
    signalPlugin(this.pid, 'SIGKILL', this.runAs);
    return this.exited;
  }

  private exitsWithin(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void this.exited.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** Resolves once the host's stderr is read to its end ('exit' can come first), or after a short bound. */
  private stderrRead(): Promise<void> {
    const stderr = this.child.stderr;
    if (!stderr || stderr.readableEnded || stderr.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, STDERR_DRAIN_MS);
      stderr.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private describeExit(code: number | null, signal: NodeJS.Signals | null): ProcessExit {
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (this.killReason) return { code, signal, reason: this.killReason.reason, detail: `${this.killReason.detail} (${how})` };
    if (this.stopping) return { code, signal, reason: 'stopped', detail: `stopped (${how})` };
    // The code alone could be a plugin's own exit(76); the host's stderr line says it was the wire.
    if (code === WIRE_ERROR_EXIT_CODE && !signal && this.wireError !== undefined) {
      return { code, signal, reason: 'wire-error', detail: `could not read a frame from homed and exited: ${this.wireError} (${how})` };
    }
    if (code === 0 && !signal) return { code, signal, reason: 'exited', detail: 'exited by itself (code 0)' };
    return { code, signal, reason: 'crash', detail: `crashed (${how})` };
  }
}
