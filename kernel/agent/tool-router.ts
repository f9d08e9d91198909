import Ajv, { type ValidateFunction } from 'ajv';
import { ToolInvokeRequest, type ToolDecl } from '../../protocol';
import type { LlmToolCall, LlmToolSpec } from '../llm/types';
import type { PluginChannel } from '../supervisor/channel';

/** A tool a plugin declared at its handshake. */
export interface PluginToolRef {
  plugin: string;
  decl: ToolDecl;
  channel: PluginChannel;
}

/** Where a tool call runs. */
export interface ToolCallContext {
  session: string;
  /** Aborted when the turn is interrupted: the call is cancelled. */
  signal: AbortSignal;
  /** The turn's sub-agents, for the kernel's child tools. */
  children: import('./children').ChildRegistry;
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

  constructor(
    private readonly pluginTools: () => PluginToolRef[],
    private readonly kernelTools: () => KernelTool[],
    private readonly defaultTimeoutMs: () => number,
  ) {}

  /** Every tool the LLM may call: the kernel's, then the plugins' (the first plugin to declare a name keeps it). */
  specs(): LlmToolSpec[] {
    const seen = new Set<string>();
    const specs: LlmToolSpec[] = [];
    for (const tool of this.kernelTools()) {
      seen.add(tool.spec.name);
      specs.push(tool.spec);
    }
    for (const { decl } of this.pluginTools()) {
      if (seen.has(decl.name)) continue;
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
    const pluginTool = kernelTool ? undefined : this.pluginTools().find((t) => t.decl.name === call.name);
    if (!kernelTool && !pluginTool) return failure(`there is no tool named "${call.name}"`);
    const schema = kernelTool ? kernelTool.spec.parameters : pluginTool!.decl.parameters;
    const problem = this.checkArgs(call.name, schema, call.args);
    if (problem) return failure(`arguments for ${call.name} do not match its schema: ${problem}`);
    try {
      if (kernelTool) return { result: await kernelTool.run((call.args ?? {}) as Record<string, unknown>, ctx), isError: false };
      const { channel, decl } = pluginTool!;
      const answer = await channel.request(
        ToolInvokeRequest.type,
        { name: call.name, args: call.args ?? {}, session: ctx.session, callId: call.id },
        decl.timeoutMs ?? this.defaultTimeoutMs(),
        ctx.signal,
      );
      return { result: answer.result, isError: answer.isError === true };
    } catch (error) {
      return failure(`tool ${call.name} failed: ${(error as Error).message}`);
    }
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
