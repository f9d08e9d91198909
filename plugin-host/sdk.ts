// The SDK a plugin is written against. A plugin default-exports `definePlugin({...})`;
// the plugin host turns it into the `initialize` answer and routes the kernel's calls to it.
import type {
  ConfigDef,
  ConfigEntry,
  EventDeliverParams,
  InputParams,
  InputResult,
  InterruptParams,
  MethodDescriptor,
  NotificationDescriptor,
  OutputParams,
  Permission,
  PluginPaths,
  RequestDescriptor,
  StageName,
  StagePatch,
  StageSnapshot,
  ToolInvokeParams,
} from '../protocol';
import { wireLimitsFromEnv } from '../protocol/runtime/wire';

/**
 * Most bytes of JSON one message between a plugin and homed may carry (a tool's result, a config value, an
 * event's data, a request's params). A bigger one is not sent: its call fails with HA_ERR_MESSAGE_TOO_LARGE
 * (a notification — `events.publish`, `io.interrupt`, a log line — throws it). Split big data, or keep it in a
 * file under `paths.pluginData` and pass the path. 4 MiB unless homed's owner changed `core.wire.max_body_bytes`.
 */
export const MAX_MESSAGE_BYTES = wireLimitsFromEnv(process.env).maxBodyBytes;

/** Structured logging that reaches the kernel's log under the plugin's name. */
export interface PluginLogger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** The plugin's settings (its own table unless `scope` names another, which needs a permission). */
export interface PluginConfig {
  get(key: string, scope?: string): Promise<unknown>;
  entry(key: string, scope?: string): Promise<ConfigEntry>;
  set(key: string, value: unknown, scope?: string): Promise<ConfigEntry>;
  list(scope?: string): Promise<ConfigEntry[]>;
}

/** The event bus: publish under the plugin's own namespace, subscribe to anything. */
export interface PluginEvents {
  /** Publishes `<plugin>.<name>`. */
  publish(name: string, data?: unknown): void;
  /** Subscribes a handler to event names or `prefix.*` patterns. */
  on(pattern: string, handler: (event: EventDeliverParams) => void): Promise<void>;
}

/** The agent's channels: a person's input in (needs `io`), interrupts (needs `interrupt`). */
export interface PluginIO {
  /** Queues a message for the agent; its answer arrives through the definition's `output` handler. */
  input(params: InputParams): Promise<InputResult>;
  /** Interrupts a session: with text it reaches the running turn (or starts one), without it stops the turn. */
  interrupt(params: InterruptParams): void;
}

/** Typed access to any kernel method, through its descriptor from `protocol/` (the kernel checks the permission). */
export interface KernelClient {
  /** Calls a request method; an abort of `signal` cancels it ($/cancelRequest) and rejects it. */
  call<P, R>(descriptor: RequestDescriptor<P, R>, params: P, signal?: AbortSignal): Promise<R>;
  /** Sends a notification method. */
  notify<P>(descriptor: NotificationDescriptor<P>, params: P): void;
}

/** What every handler of a plugin gets. */
export interface PluginContext {
  /** The plugin's name. */
  readonly name: string;
  /** Folders it may use. */
  readonly paths: PluginPaths;
  /** Permissions granted to it. */
  readonly permissions: readonly Permission[];
  readonly log: PluginLogger;
  readonly config: PluginConfig;
  readonly events: PluginEvents;
  readonly io: PluginIO;
  readonly kernel: KernelClient;
}

/** A tool: its description and argument schema for the LLM, and the code that runs it. */
export interface ToolDefinition<Args = unknown> {
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
  /** Per-call deadline in ms. */
  timeoutMs?: number;
  run(args: Args, ctx: PluginContext, call: ToolCall): unknown;
}

/** One running call of a tool, as its `run` sees it. */
export interface ToolCall extends ToolInvokeParams {
  /** Aborted when the call is cancelled: the turn was interrupted or ended, or its deadline passed. Stop at once. */
  readonly signal: AbortSignal;
  /** Shows a piece of the call's output to the person while it runs (not to the LLM); long pieces are split. */
  progress(text: string): void;
  /**
   * Gives environment variables to the commands of the rest of this turn (needs `env.grant`; a skill's api key once
   * the skill is read). Sent beside the result, never in it; later grants of the same call add to earlier ones.
   */
  grantEnv(env: Record<string, string>): void;
}

/**
 * A client method the plugin serves, made with serve(): clients reach it through the cli socket or the web page,
 * routed by the kernel. Its descriptor (in protocol/) says its name, params schema, permission, owner and deadline;
 * the handshake declares it from there, so none of it is written twice.
 */
export interface ClientMethodDefinition {
  /** The method as protocol/ declares it. */
  readonly descriptor: MethodDescriptor<never>;
  /** Carries it out: the resolved value is the client's result, a throw its error (a haError keeps its code). */
  readonly run: (params: never, ctx: PluginContext) => unknown;
}

/**
 * Serves the client method `descriptor` declares with `run`, whose params and result are the descriptor's:
 * `serve(TimerApi.List, () => ({ now, timers }))`. The kernel checks the params against the descriptor's schema and
 * its permission and owner before `run` is called.
 */
export function serve<P, R>(
  descriptor: RequestDescriptor<P, R>,
  run: (params: P, ctx: PluginContext) => NoInfer<R> | Promise<NoInfer<R>>,
): ClientMethodDefinition {
  // What crosses the handshake is data: a check written as a function would never run, so it is refused here.
  if (descriptor.paramPermission || descriptor.crossCheck) {
    throw new Error(
      `${descriptor.method} cannot be served by a plugin: the kernel admits a served method by its schema and permission alone, so check the rest in its handler`,
    );
  }
  return { descriptor, run };
}

/** What a stage handler gets besides the snapshot: `signal` aborts when the kernel gives up on it (a Stop, its deadline). */
export interface StageCall {
  readonly signal: AbortSignal;
}

export type StageHandler = (
  snapshot: StageSnapshot,
  ctx: PluginContext,
  call: StageCall,
) => StagePatch | null | undefined | Promise<StagePatch | null | undefined>;

/** Everything a plugin is: data plus handlers. */
export interface PluginDefinition {
  /** Runs during the handshake; the plugin is ready once it resolves. */
  activate?(ctx: PluginContext): void | Promise<void>;
  /** Runs on shutdown; release sockets, files and timers here. */
  deactivate?(ctx: PluginContext): void | Promise<void>;
  tools?: Record<string, ToolDefinition<never>>;
  stages?: Partial<Record<StageName, StageHandler>>;
  /** A longer deadline (ms) for a stage handler than the kernel's core.agent.stage_timeout, e.g. a guard that asks a person (at most 15 min). */
  stageTimeouts?: Partial<Record<StageName, number>>;
  /** Event handlers by name or `prefix.*` pattern. */
  events?: Record<string, (event: EventDeliverParams, ctx: PluginContext) => void>;
  /** Output of the agent for inputs this plugin sent (and for turns of sessions it brought). */
  output?(output: OutputParams, ctx: PluginContext): void;
  /** Settings declared in code (in addition to the manifest's). */
  config?: ConfigDef[];
  /** Client methods it serves, each `serve(Descriptor, handler)`; a name the kernel's own socket table serves is refused. */
  clientMethods?: readonly ClientMethodDefinition[];
}

/** Declares a plugin; an identity function that gives the definition its types. */
export function definePlugin<T extends PluginDefinition>(definition: T): T {
  return definition;
}
