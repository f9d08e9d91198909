import type { Message, MessageConnection } from 'vscode-jsonrpc';
import { ErrorCodes, haError, InterruptNotification, InterruptRequest, LogNotification, type InterruptResult } from '../../protocol';
import type { RecallService } from '../recall/recall-service';
import type { SessionStore } from '../agent/sessions';
import type { InFlightToolCalls } from '../agent/tool-calls';
import type { IOManager } from '../io/io-manager';
import type { ConfigRegistry } from '../config';
import type { EventBus } from '../events/bus';
import type { AskRegistry } from '../io/asks';
import type { HealthDesk } from '../health/health-desk';
import { bindAdminMethods, type AdminServices } from './admin-methods';
import { bindApprovalMethods } from './approval-methods';
import { admitCall, bindNotification, type SdkCaller } from './binder';
import { bindClientMethods } from './client-methods';
import { bindConfigMethods } from './config-methods';
import { bindEventMethods } from './event-methods';
import { bindHealthMethods } from './health-methods';
import { bindIoMethods } from './io-methods';
import { bindLlmMethods, type LlmService } from './llm-methods';
import { bindMemoryMethods } from './memory-methods';
import type { PackageAdmin } from '../packages/package-admin';
import { bindPackageMethods } from './package-methods';
import { bindPromptMethods } from './prompt-methods';
import { bindSessionMethods } from './session-methods';
import { bindToolMethods } from './tool-methods';
import { requestType } from '../../protocol/runtime/rpc-types';

/** The kernel services the SDK server exposes. */
export interface KernelServices extends AdminServices {
  config: ConfigRegistry;
  bus: EventBus;
  io: IOManager;
  packages: PackageAdmin;
  /** Memory and knowledge (set once the kernel has opened them). */
  recall: () => RecallService;
  /** Folders a plugin's knowledge/add path may come from besides the knowledge folder: files:roots and its own data folder. */
  knowledgeSources: (plugin: string) => string[];
  /** The kernel's providers, for llm/complete. */
  llm: () => LlmService | undefined;
  /** Conversations, for sessions/list and sessions/show. */
  sessions: SessionStore;
  /** Plugin tool calls running now, for tool/progress. */
  toolCalls: InFlightToolCalls;
  /** Questions put to a session's person, for approvals/ask, approvals/answer and approvals/pending. */
  asks: AskRegistry;
  /** Health probes, database checks and the latest health report, for health/*. */
  health: HealthDesk;
}

/** Binds every SDK method a plugin may call to the kernel's services, with its identity checked per call. */
export function bindKernelServices(connection: MessageConnection, caller: SdkCaller, services: KernelServices): void {
  bindNotification(connection, caller, LogNotification, (params) => {
    caller.note(params.level, params.msg, 'sdk', params.fields ? jsonSafe(params.fields) : undefined);
  });
  bindConfigMethods(connection, caller, services.config, services.log);
  bindEventMethods(connection, caller, services.bus);
  bindAdminMethods(connection, caller, services);
  bindClientMethods(connection, caller, services.supervisor);
  bindPackageMethods(connection, caller, services.packages, services.supervisor, services.log);
  bindIoMethods(connection, caller, services.io, services.sessions.missed);
  bindMemoryMethods(connection, caller, services.recall, services.knowledgeSources);
  bindLlmMethods(connection, caller, services.llm);
  bindSessionMethods(connection, caller, services.sessions);
  bindToolMethods(connection, caller, services.toolCalls);
  bindApprovalMethods(connection, caller, services.asks);
  bindPromptMethods(connection, caller, services.supervisor);
  bindHealthMethods(connection, caller, services.health);
  // The interrupt itself was admitted and acted on when its frame was read (interceptPriorityMessage); this only answers.
  connection.onRequest(requestType(InterruptRequest), (params) => {
    const answer = interruptAnswers.get(params as object);
    if (answer === undefined)
      throw haError(ErrorCodes.InvalidValue, 'io/interrupt refused: params needs "session"', { plugin: caller.name, method: InterruptRequest.method });
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
export function interceptPriorityMessage(caller: SdkCaller, message: Message, services: KernelServices): boolean {
  const { method, params: raw } = message as { method?: string; params?: unknown; id?: unknown };
  if (method !== InterruptNotification.method) return false;
  // A request is acted on now and answered in order: the answer is kept for its handler, under its params object.
  const isRequest = 'id' in message;
  const keep = (answer: InterruptResult | Error): void => {
    if (isRequest && raw instanceof Object) interruptAnswers.set(raw, answer);
  };
  try {
    const params = admitCall(caller, InterruptNotification, raw);
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

/** Most characters of a log line's fields, as JSON: a plugin logging a huge object costs one short note. */
const MAX_FIELDS_CHARS = 4000;

/** A plugin's log fields as they are when small, else a note of their size in their place. */
function jsonSafe(fields: Record<string, unknown>): Record<string, unknown> {
  const size = JSON.stringify(fields).length;
  return size <= MAX_FIELDS_CHARS ? fields : { fields_omitted: `${size} characters of fields, over ${MAX_FIELDS_CHARS}` };
}
