import { randomUUID } from 'node:crypto';
import { ErrorCodes, haError, type OutputParams } from '../../protocol';
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
  at: number;
}

/** Output on its way to a plugin. */
export interface OutputEvent extends OutputParams {
  /** Plugin that gets it. */
  target: string;
}

export interface IOLimits {
  queue: number;
  interrupts: number;
  outputs: number;
}

/** Sizes from the plan: ordered input 256, interrupts 64, output 256. */
export const DEFAULT_IO_LIMITS: IOLimits = { queue: 256, interrupts: 64, outputs: 256 };

/** The three channels between the world (plugins) and the agent. A full channel answers its sender with an error. */
export class IOManager {
  readonly queue: BoundedChannel<InputEvent>;
  readonly interrupts: BoundedChannel<InterruptEvent>;
  readonly outputs: BoundedChannel<OutputEvent>;
  private readonly inputListeners: ((input: InputEvent) => void)[] = [];

  constructor(limits: IOLimits = DEFAULT_IO_LIMITS) {
    this.queue = new BoundedChannel('queue', limits.queue);
    this.interrupts = new BoundedChannel('interrupt', limits.interrupts);
    this.outputs = new BoundedChannel('output', limits.outputs);
  }

  /** Queues a person's input; answers its position, or throws HA_ERR_QUEUE_FULL. */
  submitInput(input: Omit<InputEvent, 'id' | 'receivedAt' | 'via'> & { via?: InputEvent['via'] }): { id: string; position: number } {
    const event: InputEvent = { via: 'input', ...input, id: randomUUID(), receivedAt: Date.now() };
    const position = this.queue.size;
    if (!this.queue.offer(event)) {
      throw haError(ErrorCodes.QueueFull, `the agent's input queue is full (${this.queue.capacity} waiting); try again shortly`, {
        plugin: input.source,
      });
    }
    for (const listener of this.inputListeners) listener(event);
    return { id: event.id, position };
  }

  /** Calls `listener` for every input accepted into the queue. */
  onInput(listener: (input: InputEvent) => void): void {
    this.inputListeners.push(listener);
  }

  /** Hands an interrupt to the agent ahead of queued input; throws HA_ERR_QUEUE_FULL when 64 are already waiting. */
  submitInterrupt(interrupt: Omit<InterruptEvent, 'at'>): void {
    if (!this.interrupts.offer({ ...interrupt, at: Date.now() })) {
      throw haError(ErrorCodes.QueueFull, `the interrupt channel is full (${this.interrupts.capacity} waiting)`, { plugin: interrupt.source });
    }
  }

  /** Queues output for a plugin; false if the output channel is full (the delivering loop is stuck). */
  emit(output: OutputEvent): boolean {
    return this.outputs.offer(output);
  }
}
