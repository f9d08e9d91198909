import { notification, objectSchema, request, type JsonSchema } from './descriptor';
import { BOOLEAN_FIELD, INPUT_TEXT_FIELD, SESSION_FIELD, stringField } from './fields';
import { MAX_INPUT_ID_CHARS, MAX_INPUT_TEXT_CHARS } from './limits';
import type { OwnerChoices } from './approvals';

export interface InputParams {
  /** Conversation id chosen by the client; history is kept per session. */
  session: string;
  /** The person's message. */
  text: string;
  /** Id the plugin uses to match output to this input; unique per plugin. */
  inputId: string;
}
export interface InputResult {
  /** Whether the input was queued (a full queue answers with an error instead). */
  accepted: true;
  /** Inputs ahead of it in the queue. */
  position: number;
}
/** plugin → kernel (needs `io`): a person's message for the agent; its answer arrives as io/output notifications. */
export const InputRequest = request<InputParams, InputResult>('io/input', {
  params: objectSchema({ session: SESSION_FIELD, text: INPUT_TEXT_FIELD, inputId: stringField(MAX_INPUT_ID_CHARS) }, ['session', 'text', 'inputId']),
  permission: 'io',
});

export interface InterruptParams {
  /** Conversation to interrupt. */
  session: string;
  /** Text handed to the running turn (or that starts a new turn when idle); none means "stop". */
  text?: string;
  /**
   * Stop only this input of the caller's (its `inputId` from io/input): its turn if it runs, else it leaves
   * the queue. Without it a stop ends every running turn and waiting input of the session.
   */
  inputId?: string;
}
/** io/interrupt's params: a text may be empty (it then stops, like none). */
const interruptParams: JsonSchema = objectSchema(
  { session: SESSION_FIELD, text: { type: 'string', maxLength: MAX_INPUT_TEXT_CHARS }, inputId: stringField(MAX_INPUT_ID_CHARS) },
  ['session'],
);

/** plugin → kernel (needs `interrupt`): acted on ahead of queued work, even while other plugins flood the kernel. */
export const InterruptNotification = notification<InterruptParams>('io/interrupt', { params: interruptParams, permission: 'interrupt' });

/** What an interrupt hit. */
export interface InterruptResult {
  /** A turn of the session was running: it was stopped (no text) or handed the text. */
  running: boolean;
  /** Inputs of the session that were waiting and were ended, each answered as interrupted (no text only). */
  dropped_queued: number;
  /** The text started a turn of its own (nothing was running), or joined one waiting to start. */
  queued?: boolean;
}
/**
 * plugin → kernel (needs `interrupt`): the same interrupt as a request, answered with what it hit. It is
 * acted on as soon as its frame is read, like the notification; only its answer waits its turn.
 */
export const InterruptRequest = request<InterruptParams, InterruptResult>('io/interrupt', { params: interruptParams, permission: 'interrupt' });

export const OUTPUT_KINDS = ['delta', 'done', 'error', 'notice', 'tool'] as const;
export type OutputKind = (typeof OUTPUT_KINDS)[number];

/** Most characters of a tool call's arguments or result shown to the person; the rest is cut with a marker. */
export const MAX_TOOL_SHOWN_CHARS = 4096;

/** Where a tool call is: begun, sending output as it runs, or over. */
export type ToolPhase = 'start' | 'progress' | 'end';
/** How a tool call ended: its result, a failure, a guard's refusal, or an interrupt. */
export type ToolCallOutcome = 'ok' | 'error' | 'denied' | 'cancelled';

/** One step of a tool call, for the person (never the LLM): kind `tool` outputs carry it. */
export interface ToolOutputEvent {
  /** The call, unique within its turn; start, progress and end of one call share it. */
  id: string;
  /** Tool name. */
  name: string;
  /** Which step this is. */
  phase: ToolPhase;
  /** Arguments as JSON, cut past MAX_TOOL_SHOWN_CHARS with a marker (`start`). */
  args?: string;
  /** A piece of the call's output as it runs (`progress`); pieces are joined and bounded by the kernel. */
  text?: string;
  /** The result the model reads, cut past MAX_TOOL_SHOWN_CHARS with a marker (`end`). */
  result?: string;
  /** How the call ended (`end`). */
  outcome?: ToolCallOutcome;
  /** Whether the result reports a failure (`end`). */
  isError?: boolean;
  /** How long the call ran, in ms, the wait for its approval not included (`end`). */
  ms?: number;
  /** How long the call waited for its guards, a person's approval included, in ms (`end`). */
  waitMs?: number;
  /** Why a guard refused the call (`end` of a denied call). */
  denied?: string;
  /** The sub-agent that made the call (`child-1`; nested, `child-1/child-2`); absent for the agent's own calls. */
  agent?: string;
}

/** How a client names a call: `exec`, or `child-1 › exec` for a sub-agent's. */
export function toolCallLabel(event: Pick<ToolOutputEvent, 'name' | 'agent'>): string {
  return event.agent ? `${event.agent} › ${event.name}` : event.name;
}

export interface OutputParams {
  /** Input this output answers; absent for a turn no input of this plugin started (a timer firing). */
  inputId?: string;
  /** Conversation. */
  session: string;
  /**
   * `delta`: streamed text; `done`: the final answer; `error`: the turn failed; `notice`: a line for the person
   * (waiting, retrying); `tool`: a step of a tool call (in `tool`). A client ignores kinds it does not know.
   */
  kind: OutputKind;
  /** Text of a delta, of the final answer, or of a notice. */
  text?: string;
  /** Error message when kind is `error`, with what to do. */
  error?: string;
  /** Error catalogue name when kind is `error`. */
  code?: string;
  /** Whether the turn was cut short by an interrupt. */
  interrupted?: boolean;
  /** Whether a before_output handler kept the answer from being sent (the `done` then has no text). */
  skipped?: boolean;
  /**
   * The text goes on in the next io/output of the same session and input: an output too big for one wire
   * message is sent in pieces, and the plugin host joins them before the plugin sees the output.
   */
  more?: boolean;
  /** The tool call step when kind is `tool`. */
  tool?: ToolOutputEvent;
  /**
   * A question put to the person (an approval), on a `notice` whose text says it in words and how to answer: a
   * client that can ask shows it and answers with `approvals/answer {id, choice}`.
   */
  ask?: OutputAsk;
}

/** A question in a chat stream. */
export interface OutputAsk extends OwnerChoices {
  /** Id to answer it with (`approvals/answer`). */
  id: string;
  question: string;
  /** The words an answer may be, e.g. yes, no, always. */
  choices: string[];
  /** When it is settled `no` unless answered, ISO 8601 UTC. */
  expiresAt: string;
}
/** kernel → plugin: output for a session whose input came from this plugin. */
export const OutputNotification = notification<OutputParams>('io/output', {
  params: objectSchema(
    {
      inputId: { type: 'string' },
      session: { type: 'string' },
      kind: { enum: [...OUTPUT_KINDS] },
      text: { type: 'string' },
      error: { type: 'string' },
      code: { type: 'string' },
      interrupted: BOOLEAN_FIELD,
      skipped: BOOLEAN_FIELD,
      more: BOOLEAN_FIELD,
      tool: { type: 'object' },
      ask: { type: 'object' },
    },
    ['session', 'kind'],
  ),
  permission: null,
});

/** Longest text of a missed output, in characters: past it the head and tail are kept, with where the whole is. */
export const MAX_MISSED_TEXT_CHARS = 16_000;

/** Shortens a missed output's text past MAX_MISSED_TEXT_CHARS: head and tail, with how much was left out and where the whole is. */
export function shortenMissedText(text: string, session: string): string {
  if (text.length <= MAX_MISSED_TEXT_CHARS) return text;
  const half = Math.floor((MAX_MISSED_TEXT_CHARS - 200) / 2);
  return `${text.slice(0, half)}\n[… ${(text.length - 2 * half).toLocaleString('en-US')} characters left out here; the whole answer is in the session: homectl sessions show ${session}]\n${text.slice(text.length - half)}`;
}

/** A final output no client received, kept by the kernel for the session's next client. */
export interface MissedOutput {
  /** The output (`done` or `error`), its text shortened past MAX_MISSED_TEXT_CHARS. */
  output: OutputParams;
  /** When it was kept (ms since epoch). */
  at: number;
}

/**
 * plugin → kernel (needs `io`): a final output of a session that no client of this plugin received (nobody waited
 * for it or followed the session); the kernel keeps it, in agent.db, for the session's next client.
 */
export const OutputUndeliveredNotification = notification<OutputParams>('io/undelivered', {
  params: objectSchema(
    {
      inputId: stringField(MAX_INPUT_ID_CHARS),
      session: SESSION_FIELD,
      kind: { enum: ['done', 'error'] },
      text: { type: 'string', maxLength: MAX_MISSED_TEXT_CHARS + 400 },
      error: { type: 'string', maxLength: MAX_MISSED_TEXT_CHARS },
      code: { type: 'string', maxLength: 200 },
      interrupted: BOOLEAN_FIELD,
      skipped: BOOLEAN_FIELD,
    },
    ['session', 'kind'],
  ),
  permission: 'io',
});

export interface MissedTakeParams {
  /** Conversation whose missed outputs to take. */
  session: string;
}
export interface MissedTakeResult {
  /** Oldest first; they are no longer kept once taken. */
  missed: MissedOutput[];
}
/** plugin → kernel (needs `io`): takes the session's outputs no client received, to show its new client first. */
export const MissedTakeRequest = request<MissedTakeParams, MissedTakeResult>('io/missed', {
  params: objectSchema({ session: SESSION_FIELD }, ['session']),
  permission: 'io',
});
