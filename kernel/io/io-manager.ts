import { randomUUID } from 'node:crypto';
import { ErrorCodes, haError, type InterruptResult, type OutputParams } from '../../protocol';
import { BoundedChannel } from './channel';

/** The kernel's own loop-back source: memory disambiguation and maintenance, whose output reaches no person. */
export const CONSOLIDATION_SOURCE = '_consolidation_';

/** One message for the agent. */
export interface InputEvent {
  /** Kernel-wide id. */
  id: string;
  /** Plugin that sent it, or `_consolidation_`. */
  source: string;
  /** The sender's own id for it, echoed in every output. */
  inputId?: string;
  session: string;
  text: string;
  /** `input` from a person; `interrupt` when an interrupt started the turn (delivery path c). */
  via: 'input' | 'interrupt';
  receivedAt: number;
}

/** An interrupt for a session: with text it is handed to the turn, without it the turn stops. */
export interface InterruptEvent {
  source: string;
  session: string;
  text?: string;
  /** Stop only this input of `source` (its own id for it). */
  inputId?: string;
  at: number;
}

/** Output on its way to a plugin. */
export interface OutputEvent extends OutputParams {
  /** Plugin that gets it. */
  target: string;
}

/** What takes input and interrupts: the agent, once it runs. */
export interface AgentDoor {
  /** Queues an input in its session's lane (written ahead first); answers how many wait ahead of it, or throws. */
  accept(input: InputEvent): number;
  /** Acts on an interrupt at once; answers what it hit. */
  interrupt(interrupt: InterruptEvent): InterruptResult;
}

/** Output waiting for the delivering loop; past it, output is delivered at once rather than dropped. */
export const OUTPUT_CHANNEL_SIZE = 256;

/**
 * The door between the world (plugins) and the agent: inputs go to their session's lane, interrupts are
 * acted on at once, outputs wait in a bounded channel for the plugin that shows them. A refused input
 * answers its sender with an error; nothing is dropped silently.
 */
export class IOManager {
  readonly outputs = new BoundedChannel<OutputEvent>('output', OUTPUT_CHANNEL_SIZE);
  private door: AgentDoor | undefined;
  private readonly inputListeners: ((input: InputEvent) => void)[] = [];

  /** Connects the agent; until then every input is refused. */
  attach(door: AgentDoor): void {
    this.door = door;
  }

  /** Hands a person's input to the agent; answers its id and how many wait ahead of it in its session. */
  submitInput(input: Omit<InputEvent, 'id' | 'receivedAt' | 'via'> & { via?: InputEvent['via'] }): { id: string; position: number } {
    const event: InputEvent = { via: 'input', ...input, id: randomUUID(), receivedAt: Date.now() };
    const position = this.agentDoor(input.source).accept(event);
    for (const listener of this.inputListeners) listener(event);
    return { id: event.id, position };
  }

  /** Calls `listener` for every input the agent accepted. */
  onInput(listener: (input: InputEvent) => void): void {
    this.inputListeners.push(listener);
  }

  /** Acts on an interrupt ahead of queued work; answers whether a turn was running and how many queued inputs it ended. */
  submitInterrupt(interrupt: Omit<InterruptEvent, 'at'>): InterruptResult {
    return this.agentDoor(interrupt.source).interrupt({ ...interrupt, at: Date.now() });
  }

  /** Queues output for a plugin; false if the output channel is full (the delivering loop is stuck). */
  emit(output: OutputEvent): boolean {
    return this.outputs.offer(output);
  }

  private agentDoor(source: string): AgentDoor {
    if (!this.door) throw haError(ErrorCodes.ShuttingDown, 'the agent is not running yet; send it again in a moment', { plugin: source });
    return this.door;
  }
}
