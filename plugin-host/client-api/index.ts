// The client protocol, served by shared code: the method table every client transport runs (the cli socket, the
// web page), the router that hands the agent's output to the chat calls waiting for it, and client sessions.
import { ClientCallRequest } from '../../protocol';
import type { KernelClient, PluginContext } from '../sdk';
import { createApprovalMethods } from './approval-methods';
import { createChatMethods } from './chat/methods';
import { keepMissedInKernel } from './chat/kernel-missed';
import { Mailbox } from './chat/mailbox';
import { ChatRouter } from './chat/router';
import { createEventMethods, EventFanout } from './event-methods';
import { createMemoryMethods } from './memory-methods';
import { createAdminMethods, type MethodTable } from './methods';
import type { ForwardCall } from './session';

export { ChatRouter } from './chat/router';
export { SocketFailure, toSocketError } from './errors';
export { EventFanout } from './event-methods';
export { methodTable, row, type MethodTable, type SocketCall, type SocketMethod } from './methods';
export {
  MAX_IN_FLIGHT,
  openClientSession,
  type ClientSession,
  type ClientSessionDeps,
  type ClientTransport,
  type ForwardCall,
  type SessionState,
} from './session';

/** The whole client protocol of one serving plugin. */
export interface ClientMethods {
  /** Every method of the kernel's table (admin, memory and knowledge, chat, events). */
  methods: MethodTable;
  /** Feed it the plugin's `output` handler: it routes the agent's answers to the chat calls. */
  router: ChatRouter;
  /** Runs the methods other plugins serve (e.g. webui/open), through the kernel. */
  forward: ForwardCall;
}

/**
 * Builds the client protocol for the plugin `ctx` belongs to (it needs the cli's permissions: admin, events, io,
 * interrupt, memory, knowledge). A call is the owner's own only when its transport says so (SocketCall.fromOwner: the
 * cli's admin socket); only such a call widens what the agent may do, and the plugin then needs `config.guarded`.
 */
export function createClientMethods(ctx: Pick<PluginContext, 'name' | 'kernel' | 'io' | 'log' | 'events'>): ClientMethods {
  // Answers nobody received are kept by the kernel, so the session's next client gets them through any plugin.
  const router = new ChatRouter(ctx.log, new Mailbox(), Date.now, keepMissedInKernel(ctx.kernel));
  return {
    methods: {
      ...createAdminMethods(ctx.kernel, ctx.name),
      ...createMemoryMethods(ctx.kernel),
      ...createChatMethods(ctx.io, router, ctx.kernel),
      ...createEventMethods(new EventFanout(ctx.events)),
      ...createApprovalMethods(ctx.kernel),
    },
    router,
    forward: forwardToPlugins(ctx.kernel),
  };
}

/** Sends a method outside the table to the kernel, which runs it in the plugin that serves it, marked when it is the owner's. */
export function forwardToPlugins(kernel: KernelClient): ForwardCall {
  return (method, params, call) => kernel.call(ClientCallRequest, { method, params, ...(call.fromOwner ? { owner: true } : {}) });
}
