// Where a turn's output goes: the plugin that sent the input, or for a turn an interrupt started, the
// plugin that last brought a person's input to the session; the kernel's loop-back output reaches no one. A final
// output with nowhere to go (no such plugin, or it is not running) is kept for the session's next client.
import { ErrorCodes, ErrorNames, type OutputParams } from '../../protocol';
import { CONSOLIDATION_SOURCE, type InputEvent, type IOManager, type OutputEvent } from '../io/io-manager';
import { isMissable } from './missed-outputs';
import type { SessionStore } from './sessions';
import type { TurnOutcome } from './turn';

/** An output before it is addressed. */
export type TurnOutput = Omit<OutputParams, 'session' | 'inputId'>;

/** What addressing needs from the kernel. */
export interface OutputDeps {
  io: IOManager;
  sessions: SessionStore;
  deliver(output: OutputEvent): void;
  loopback?(input: InputEvent, output: TurnOutput): void;
  /** Whether a plugin can take an output now (it runs); unset, every one can. */
  reaches?(plugin: string): boolean;
  /** Told when a missed output could not be kept (the disk is full). */
  onKeepFailed?(session: string, error: Error): void;
}

/** Addresses each output of a turn and queues it for delivery. */
export class AgentOutputs {
  constructor(private readonly deps: OutputDeps) {}

  /** Sends output for an input to the plugin that should show it. */
  answer(input: InputEvent, output: TurnOutput): void {
    if (input.source === CONSOLIDATION_SOURCE) {
      this.deps.loopback?.(input, output);
      return;
    }
    const target = input.via === 'input' ? input.source : this.deps.sessions.ownerPluginOf(input.session);
    const event: OutputEvent = { ...output, target: target ?? '', session: input.session };
    if (input.via === 'input' && input.inputId !== undefined) event.inputId = input.inputId;
    this.send(event);
  }

  /** Queues an output for its plugin; a final one whose plugin cannot take it is kept for the session's next client. */
  send(event: OutputEvent): void {
    if (event.target !== '' && (this.deps.reaches?.(event.target) ?? true)) {
      this.emit(event);
      return;
    }
    if (!isMissable(event)) return;
    const { target: _nowhere, ...output } = event;
    try {
      this.deps.sessions.missed.keep(output);
    } catch (error) {
      this.deps.onKeepFailed?.(event.session, error as Error);
    }
  }

  /** Queues an addressed output. */
  emit(event: OutputEvent): void {
    if (this.deps.io.emit(event)) return;
    // A full channel means a burst larger than it (a provider's chunk of hundreds of deltas): what waits is
    // delivered now, in order, then this output, so no word is dropped and none overtakes another.
    this.flush();
    this.deps.deliver(event);
  }

  /** Delivers every output still waiting in the channel, in order. */
  flush(): void {
    for (const waiting of this.deps.io.outputs.remove(() => true)) this.deps.deliver(waiting);
  }
}

/**
 * The final output of a finished turn: `done`, or an error when the answer was cut at its cap or when an on_input
 * handler refused the message (its answer, the reason, is then the error: a client counts it as a failure).
 */
export function finalOutput(outcome: TurnOutcome, maxAnswerChars: number): TurnOutput {
  if (outcome.skipped) return { kind: 'done', skipped: true };
  if (outcome.refused) return { kind: 'error', code: ErrorNames[ErrorCodes.Conflict]!, error: outcome.text };
  if (outcome.capped) {
    return {
      kind: 'error',
      code: ErrorNames[ErrorCodes.AnswerTooLong]!,
      error: `the answer passed ${maxAnswerChars.toLocaleString('en-US')} characters (core.agent.max_answer_chars) and was cut there; what came before is kept in the session. Ask for a shorter answer, or raise the setting`,
      text: outcome.text,
    };
  }
  return { kind: 'done', text: outcome.text, ...(outcome.interrupted ? { interrupted: true } : {}) };
}
