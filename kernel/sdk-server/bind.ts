import type { Message, MessageConnection } from 'vscode-jsonrpc';
import { ErrorCodes, haError, InterruptNotification, InterruptRequest, LOG_LEVELS, LogNotification, type InterruptParams, type InterruptResult } from '../../protocol';
import type { RecallService } from '../recall/recall-service';
import type { SessionStore } from '../agent/sessions';
import type { IOManager } from '../io/io-manager';
import type { ConfigRegistry } from '../config';
import type { EventBus } from '../events/bus';
import type { PluginSupervisor } from '../supervisor/plugin-supervisor';
import { bindAdminMethods, type AdminServices } from './admin-methods';
import { bindConfigMethods } from './config-methods';
import { bindEventMethods } from './event-methods';
import { bindIoMethods } from './io-methods';
import { bindLlmMethods, type LlmService } from './llm-methods';
import { bindMemoryMethods } from './memory-methods';
import type { PackageAdmin } from '../packages/package-admin';
import { bindPackageMethods } from './package-methods';
import { requirePermission } from './permissions';
import { bindSessionMethods } from './session-methods';

/** The kernel services the SDK server exposes. */
export interface KernelServices extends AdminServices {
  config: ConfigRegistry;
  bus: EventBus;
  io: IOManager;
  packages: PackageAdmin;
  /** Memory and knowledge (set once the kernel has opened them). */
  recall: () => RecallService;
  /** The kernel's providers, for llm/complete. */
  llm: () => LlmService | undefined;
  /** Conversations, for sessions/list and sessions/show. */
  sessions: SessionStore;
}

/** Binds every SDK method a plugin may call to the kernel's services, with its identity checked per call. */
export function bindKernelServices(connection: MessageConnection, caller: PluginSupervisor, services: KernelServices): void {
  connection.onNotification(LogNotification.type, (params) => {
    const level = LOG_LEVELS.includes(params.level) ? params.level : 'info';
    const fields = params.fields ? ` ${safeJson(params.fields)}` : '';
    caller.note(level, `${String(params.msg)}${fields}`, 'sdk');
  });
  bindConfigMethods(connection, caller, services.config);
  bindEventMethods(connection, caller, services.bus);
  bindAdminMethods(connection, caller, services);
  bindPackageMethods(connection, caller, services.packages);
  bindIoMethods(connection, caller, services.io);
  bindMemoryMethods(connection, caller, services.recall);
  bindLlmMethods(connection, caller, services.llm);
  bindSessionMethods(connection, caller, services.sessions);
  // The interrupt itself was acted on when its frame was read (interceptPriorityMessage); this only answers.
  connection.onRequest(InterruptRequest.type, (params) => {
    const answer = typeof params === 'object' && params !== null ? interruptAnswers.get(params) : undefined;
    if (answer === undefined) throw haError(ErrorCodes.InvalidValue, 'io/interrupt needs params {session, text?}', { plugin: caller.name, method: InterruptRequest.method });
    if (answer instanceof Error) throw answer;
    return answer;
  });
}

/** What each interrupt request hit, by its params object, from the moment it was read until it is answered. */
const interruptAnswers = new WeakMap<object, InterruptResult | Error>();

/**
 * Interrupts are taken off the wire as soon as their frame is complete, ahead of whatever the
 * plugin's connection has queued, so a flood from any plugin cannot delay them.
 */
export function interceptPriorityMessage(caller: PluginSupervisor, message: Message, services: KernelServices): boolean {
  const { method, params } = message as { method?: string; params?: InterruptParams; id?: unknown };
  if (method !== InterruptNotification.method) return false;
  // A request is acted on now and answered in order: the answer is kept for its handler.
  const isRequest = 'id' in message;
  const keep = (answer: InterruptResult | Error): void => {
    if (isRequest && typeof params === 'object' && params !== null) interruptAnswers.set(params, answer);
  };
  try {
    requirePermission(caller, InterruptNotification.method, 'interrupt');
    if (typeof params?.session !== 'string' || params.session === '' || (params.text !== undefined && typeof params.text !== 'string') || (params.inputId !== undefined && typeof params.inputId !== 'string')) {
      caller.note('warn', 'dropped an io/interrupt without a session id or with a non-text text');
      keep(haError(ErrorCodes.InvalidValue, 'io/interrupt needs a session id and, if any, a text', { plugin: caller.name, method: InterruptRequest.method }));
      return !isRequest;
    }
    keep(
      services.io.submitInterrupt({
        source: caller.name,
        session: params.session,
        ...(params.text !== undefined ? { text: params.text } : {}),
        ...(params.inputId !== undefined ? { inputId: params.inputId } : {}),
      }),
    );
  } catch (error) {
    caller.note('warn', `interrupt not delivered: ${(error as Error).message}`);
    keep(error as Error);
  }
  return !isRequest;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value).slice(0, 2000);
  } catch {
    return '[unserialisable fields]';
  }
}
