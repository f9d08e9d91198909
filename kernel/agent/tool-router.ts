import Ajv, { type ValidateFunction } from 'ajv';
import { ToolInvokeRequest, type LogLevel, type Permission, type PluginState, type ToolDecl, type ToolInvokeParams } from '../../protocol';
import type { LlmToolCall, LlmToolSpec } from '../llm/types';
import type { PluginChannel } from '../supervisor/channel';
import type { ChildRegistry } from './children';
import { InFlightToolCalls } from './tool-calls';
import type { TurnEnv } from './turn-env';
import { adviceFor, CALLABLE_STATE, describeState, OFFERED_STATES } from '../supervisor/plugin-availability';

/** A tool a plugin declared at its (last) handshake; the plugin may have stopped or crashed since. */
export interface PluginToolRef {
  plugin: string;
  decl: ToolDecl;
  /** The connection to its running process; undefined when none runs. */
  channel: PluginChannel | undefined;
  /** The plugin's state now: only a `ready` plugin is called, any other fails the call at once. */
  state(): PluginState;
  /** What its manifest grants (`env.grant`, `env.receive` matter here). */
  permissions: readonly Permission[];
  /** Keeps a line in the plugin's log (a grant it may not make). */
  note(level: LogLevel, msg: string): void;
}

/** Where a tool call runs. */
export interface ToolCallContext {
  session: string;
  /** Aborted when the turn is interrupted: the call is cancelled. */
  signal: AbortSignal;
  /** The turn's sub-agents, for the kernel's child tools. */
  children: ChildRegistry;
  /** Where the call's tool/progress pieces go (a plugin tool's output as it runs). */
  progress?: (text: string) => void;
  /** The environment the turn was granted: read for plugins with `env.receive`, added to by those with `env.grant`. */
  env?: TurnEnv;
}

/** A tool the kernel itself provides (sub-agents). */
export interface KernelTool {
  spec: LlmToolSpec;
  run(args: Record<string, unknown>, ctx: ToolCallContext): Promise<unknown>;
}

/** What the LLM sees of a tool call: its result, or an error it can read. Never a failed turn. */
export interface ToolOutcome {
  result: unknown;
  isError: boolean;
}

/** Routes each tool call to the plugin that declared it, with its arguments checked and a deadline. */
export class ToolRouter {
  private readonly ajv = new Ajv({ allErrors: true, strict: false });
  private readonly validators = new Map<string, { schema: string; validate: ValidateFunction | null; problem?: string }>();
  /** Plugins already warned that they sent env without `env.grant` (once each). */
  private readonly warnedGrants = new Set<string>();

  constructor(
    private readonly pluginTools: () => PluginToolRef[],
    private readonly kernelTools: () => KernelTool[],
    private readonly defaultTimeoutMs: () => number,
    /** Plugin calls running now, so their tool/progress finds its session. */
    readonly inFlight: InFlightToolCalls = new InFlightToolCalls(),
  ) {}

  /**
   * Every tool the LLM may call: the kernel's, then those of plugins that run or are coming back by themselves
   * (the first plugin to declare a name keeps it).
   */
  specs(): LlmToolSpec[] {
    const seen = new Set<string>();
    const specs: LlmToolSpec[] = [];
    for (const tool of this.kernelTools()) {
      seen.add(tool.spec.name);
      specs.push(tool.spec);
    }
    for (const { decl, state } of this.pluginTools()) {
      if (seen.has(decl.name) || !OFFERED_STATES.has(state())) continue;
      seen.add(decl.name);
      specs.push({ name: decl.name, description: decl.description, parameters: decl.parameters });
    }
    return specs;
  }

  async invoke(call: LlmToolCall, ctx: ToolCallContext): Promise<ToolOutcome> {
    if (!call.complete) {
      return failure(`the arguments of tool call ${call.name} were cut off before they finished; it was not run`);
    }
    const kernelTool = this.kernelTools().find((t) => t.spec.name === call.name);
    const pluginTool = kernelTool ? undefined : this.findPluginTool(call.name);
    if (!kernelTool && !pluginTool) return failure(`there is no tool named "${call.name}"`);
    // A plugin that is not ready would only let the call wait out its deadline: say why at once instead.
    if (pluginTool && (pluginTool.state() !== CALLABLE_STATE || !pluginTool.channel)) return unavailable(call.name, pluginTool);
    const schema = kernelTool ? kernelTool.spec.parameters : pluginTool!.decl.parameters;
    const problem = this.checkArgs(call.name, schema, call.args);
    if (problem) return failure(`arguments for ${call.name} do not match its schema: ${problem}`);
    try {
      if (kernelTool) return { result: await kernelTool.run((call.args ?? {}) as Record<string, unknown>, ctx), isError: false };
      return await this.invokePlugin(pluginTool!, call, ctx);
    } catch (error) {
      return failure(`tool ${call.name} failed: ${(error as Error).message}`);
    }
  }

  /**
   * Runs a plugin's tool under a call id unique among that plugin's running calls, taking its progress meanwhile;
   * the turn's granted environment goes only to a plugin with `env.receive`, and env in the answer is kept only
   * from a plugin with `env.grant`.
   */
  private async invokePlugin(ref: PluginToolRef, call: LlmToolCall, ctx: ToolCallContext): Promise<ToolOutcome> {
    const { plugin, channel, decl } = ref;
    const callId = this.inFlight.open(plugin, call.id, ctx.progress ?? (() => undefined));
    try {
      const params: ToolInvokeParams = { name: call.name, args: call.args ?? {}, session: ctx.session, callId };
      const env = ref.permissions.includes('env.receive') ? ctx.env?.read() : undefined;
      if (env) params.env = env;
      const answer = await channel!.call(ToolInvokeRequest, params, decl.timeoutMs ?? this.defaultTimeoutMs(), ctx.signal);
      if (answer.env !== undefined) this.takeGrant(ref, call.name, answer.env, ctx.env);
      return { result: answer.result, isError: answer.isError === true };
    } finally {
      this.inFlight.close(plugin, callId);
    }
  }

  /** Keeps what a tool granted to its turn, if its plugin may grant; says in its log (names only) what was not kept. */
  private takeGrant(ref: PluginToolRef, tool: string, env: unknown, into: TurnEnv | undefined): void {
    if (!ref.permissions.includes('env.grant')) {
      if (this.warnedGrants.has(ref.plugin)) return;
      this.warnedGrants.add(ref.plugin);
      ref.note('warn', `tool ${tool} answered with environment variables, which were ignored: the plugin lacks the permission "env.grant" (said once)`);
      return;
    }
    if (!into) return;
    const { refused } = into.grant(env);
    for (const why of refused) ref.note('warn', `tool ${tool} granted an environment variable that was ignored: ${why}`);
  }

  /** Who serves a tool now: `kernel` for the kernel's own, the plugin's name, or undefined for no such tool. */
  ownerOf(name: string): string | undefined {
    if (this.kernelTools().some((t) => t.spec.name === name)) return 'kernel';
    return this.findPluginTool(name)?.plugin;
  }

  /** The plugin tool of that name: the first ready plugin's, else the first plugin's that declared it. */
  private findPluginTool(name: string): PluginToolRef | undefined {
    const declaring = this.pluginTools().filter((t) => t.decl.name === name);
    return declaring.find((t) => t.state() === CALLABLE_STATE && t.channel) ?? declaring[0];
  }

  private checkArgs(name: string, schema: Record<string, unknown>, args: unknown): string | undefined {
    const key = JSON.stringify(schema);
    let entry = this.validators.get(name);
    if (!entry || entry.schema !== key) {
      try {
        entry = { schema: key, validate: this.ajv.compile(schema) };
      } catch (error) {
        entry = { schema: key, validate: null, problem: `the tool's own schema is invalid (${(error as Error).message})` };
      }
      this.validators.set(name, entry);
    }
    if (!entry.validate) return entry.problem;
    if (entry.validate(args ?? {})) return undefined;
    return (entry.validate.errors ?? []).map((e) => `${e.instancePath || '(arguments)'} ${e.message ?? 'is invalid'}`).join('; ');
  }
}

function failure(message: string): ToolOutcome {
  return { result: { error: message }, isError: true };
}

/** `tool forecast is not available: plugin "weather" is backoff (restarting after a crash); try again shortly`. */
function unavailable(tool: string, { plugin, state: stateNow }: PluginToolRef): ToolOutcome {
  const state = stateNow();
  const error = `tool ${tool} is not available: ${describeState(plugin, state)}; ${adviceFor(plugin, state)}`;
  return { result: { error, plugin, state }, isError: true };
}
