// The plugin host: the program every plugin process runs. It connects the wire on fd 3
// (stdout and stderr are only logs, so nothing a plugin prints can corrupt the wire),
// loads the plugin named in `initialize`, and routes the kernel's calls to it.
import * as net from 'node:net';
import {
  ClientInvokeRequest,
  EventDeliverNotification,
  ExitNotification,
  InitializeRequest,
  OutputNotification,
  PingRequest,
  PROTOCOL_VERSION,
  ShutdownRequest,
  StageInvokeRequest,
  ToolInvokeRequest,
  ToolProgressNotification,
  type InitializeParams,
  type InitializeResult,
} from '../protocol';
import { createWireConnection, WIRE_ERROR_EXIT_CODE, WIRE_ERROR_MARK, WireViolation, wireLimitsFromEnv } from '../protocol/runtime/wire';
import { ConnectedPluginContext } from './connected-plugin-context';
import { loadPluginDefinition } from './load';
import { OutputJoiner } from './output-pieces';
import { ServedMethods } from './served-methods';
import { toolCall } from './tool-call';
import type { PluginDefinition } from './sdk';
import { notificationType, requestType } from '../protocol/runtime/rpc-types';

const WIRE_FD = 3;

function main(): void {
  const wire = new net.Socket({ fd: WIRE_FD, readable: true, writable: true });
  // The kernel's caps, so this end never sends what the kernel refuses (the writer refuses it here instead).
  const { connection, reader } = createWireConnection(wire, wire, wireLimitsFromEnv(process.env));
  reader.onError(exitOnWireError);
  let plugin: PluginDefinition | undefined;
  let served = new ServedMethods();
  let context: ConnectedPluginContext | undefined;

  exitWhenKernelGoes(wire);

  connection.onRequest(requestType(InitializeRequest), async (params: InitializeParams): Promise<InitializeResult> => {
    if (params.protocolVersion !== PROTOCOL_VERSION) {
      throw new Error(`plugin host speaks protocol ${PROTOCOL_VERSION}, kernel sent ${params.protocolVersion}`);
    }
    process.title = `homeagent-plugin:${params.name}`;
    // A Lua plugin's main.lua runs in fengari (plugin-host/lua/); its definition routes like a JS plugin's.
    // Loaded only for Lua plugins: fengari costs a JS plugin's host memory and start time for nothing.
    plugin = params.kind === 'lua' ? loadLua().loadLuaPlugin(params) : await loadPluginDefinition(params.entry);
    served = new ServedMethods(plugin.clientMethods);
    context = new ConnectedPluginContext(connection, params);
    for (const [pattern, handler] of Object.entries(plugin.events ?? {})) {
      const ctx = context;
      ctx.addHandler(pattern, (event) => handler(event, ctx));
    }
    await plugin.activate?.(context);
    return describePlugin(plugin, served);
  });

  connection.onRequest(requestType(PingRequest), (params) => ({ seq: params.seq }));

  connection.onRequest(requestType(ShutdownRequest), async () => {
    if (plugin && context) await plugin.deactivate?.(context);
    return null;
  });

  connection.onNotification(notificationType(ExitNotification), () => process.exit(0));

  connection.onNotification(notificationType(EventDeliverNotification), (event) => context?.deliver(event));

  const outputs = new OutputJoiner();
  connection.onNotification(notificationType(OutputNotification), (piece) => {
    const output = outputs.take(piece);
    if (output && plugin?.output && context) plugin.output(output, context);
  });

  connection.onRequest(requestType(ToolInvokeRequest), async (params, token) => {
    const tool = plugin?.tools?.[params.name];
    if (!tool || !context) throw new Error(`this plugin has no tool named ${params.name}`);
    const cancelled = new AbortController();
    const watch = token.onCancellationRequested(() => cancelled.abort());
    try {
      const running = toolCall(params, cancelled.signal, (piece) => connection.sendNotification(notificationType(ToolProgressNotification), piece));
      const result: unknown = await tool.run(params.args as never, context, running.call);
      const env = running.granted();
      return env ? { result, env } : { result };
    } catch (error) {
      // A tool that throws failed: the LLM reads its message, not the wire's wrapping of it.
      return { result: { error: `tool ${params.name} failed: ${(error as Error).message}` }, isError: true };
    } finally {
      watch.dispose();
    }
  });

  connection.onRequest(requestType(ClientInvokeRequest), async (params) => {
    const method = served.get(params.method);
    if (!method || !context) throw new Error(`this plugin serves no client method named ${params.method}`);
    const result: unknown = await method.run(params.params as never, context);
    return { result: result ?? null };
  });

  connection.onRequest(requestType(StageInvokeRequest), async (params, token) => {
    const handler = plugin?.stages?.[params.stage];
    if (!handler || !context) return null;
    const cancelled = new AbortController();
    const watch = token.onCancellationRequested(() => cancelled.abort());
    try {
      return (await handler(params.snapshot, context, { signal: cancelled.signal })) ?? null;
    } finally {
      watch.dispose();
    }
  });

  connection.listen();
}

function loadLua(): typeof import('./lua/plugin') {
  return require('./lua/plugin') as typeof import('./lua/plugin');
}

function describePlugin(plugin: PluginDefinition, served: ServedMethods): InitializeResult {
  const clientMethods = served.declare();
  return {
    protocolVersion: PROTOCOL_VERSION,
    tools: Object.entries(plugin.tools ?? {}).map(([name, tool]) => ({
      name,
      description: tool.description,
      parameters: tool.parameters,
      ...(tool.timeoutMs === undefined ? {} : { timeoutMs: tool.timeoutMs }),
    })),
    stages: Object.keys(plugin.stages ?? {}) as InitializeResult['stages'],
    ...(plugin.stageTimeouts ? { stageTimeouts: plugin.stageTimeouts } : {}),
    subscriptions: Object.keys(plugin.events ?? {}),
    config: plugin.config ?? [],
    ...(clientMethods ? { clientMethods } : {}),
  };
}

/**
 * A frame from the kernel that cannot be read ends reading for good, heartbeats included: rather than wait to be
 * killed as unresponsive, the host says why on stderr and exits at once, and the kernel restarts it.
 */
function exitOnWireError(error: Error): void {
  if (!(error instanceof WireViolation)) return; // a broken pipe: exitWhenKernelGoes handles it
  process.stderr.write(`${WIRE_ERROR_MARK}${error.message}\n`);
  process.exit(WIRE_ERROR_EXIT_CODE);
}

/** No orphans: the host ends when its wire to the kernel closes or its parent is gone. */
function exitWhenKernelGoes(wire: net.Socket): void {
  wire.on('end', () => process.exit(0));
  wire.on('close', () => process.exit(0));
  wire.on('error', () => process.exit(0));
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) process.exit(0);
  }, 1000).unref();
}

main();
