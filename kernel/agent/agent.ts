import type { Logger } from 'pino';
import { ErrorCodes, ErrorNames, type OutputParams } from '../../protocol';
import { LlmError } from '../llm/errors';
import { CONSOLIDATION_SOURCE, type InputEvent, type InterruptEvent, type IOManager, type OutputEvent } from '../io/io-manager';
import type { SessionContexts } from './context/session-contexts';
import type { AgentPolicy } from './policy';
import type { SessionStore } from './sessions';
import { Turn, type TurnDeps } from './turn';

export interface AgentDeps {
  io: IOManager;
  sessions: SessionStore;
  turn: TurnDeps;
  policy: () => AgentPolicy;
  /** Picks each turn's context (recent and relevant turns, memories, knowledge). */
  contexts: SessionContexts;
  /** Hands an output to its plugin. */
  deliver(output: OutputEvent): void;
  /** Output of the kernel's own loop-back turns (`_consolidation_`), which reaches no person. */
  loopback?(input: InputEvent, output: Omit<OutputParams, 'session' | 'inputId'>): void;
  /** A person's turn ended and was stored (the distill loop has new conversation). */
  afterTurn?(session: string): void;
  log: Logger;
}

/**
 * The main agent: `eventLoop` runs queued input one turn at a time, `interceptLoop` acts on
 * interrupts at once (abort the LLM call, hand text to the turn, or start a turn when idle).
 */
export class Agent {
  private current: { turn: Turn; input: InputEvent } | undefined;
  private running = false;
  private idle: Promise<void> = Promise.resolve();
  private lastBusyAt = Date.now();

  constructor(private readonly deps: AgentDeps) {
    // A person's input is not kept waiting behind the kernel's own loop-back work: that turn stops and is retried later.
    deps.io.onInput((input) => {
      if (input.source !== CONSOLIDATION_SOURCE && this.current?.input.source === CONSOLIDATION_SOURCE) this.current.turn.interrupt();
    });
  }

  /** Milliseconds since the agent last ran a turn, or 0 while it runs one or has input waiting. */
  idleForMs(): number {
    if (this.current || this.deps.io.queue.size > 0) return 0;
    return Date.now() - this.lastBusyAt;
  }

  start(): void {
    this.running = true;
    void this.eventLoop();
    void this.interceptLoop();
    void this.outputLoop();
  }

  /** Stops taking input: the running turn is interrupted and awaited, and every queued input is answered with an error. */
  async stop(): Promise<void> {
    this.running = false;
    this.current?.turn.interrupt();
    await this.idle;
    for (const input of this.deps.io.queue.remove(() => true)) {
      this.answer(input, { kind: 'error', code: ErrorNames[ErrorCodes.ShuttingDown]!, error: 'homed is shutting down; send it again once it is back' });
    }
    for (const output of this.deps.io.outputs.remove(() => true)) this.deps.deliver(output);
  }


  private async eventLoop(): Promise<void> {
    for (;;) {
      const input = await this.deps.io.queue.take();
      if (!this.running) {
        this.answer(input, { kind: 'error', code: ErrorNames[ErrorCodes.ShuttingDown]!, error: 'homed is shutting down; send it again once it is back' });
        continue;
      }
      let finished!: () => void;
      this.idle = new Promise((resolve) => (finished = resolve));
      try {
        await this.process(input);
      } finally {
        finished();
      }
    }
  }

  private async interceptLoop(): Promise<void> {
    for (;;) this.applyInterrupt(await this.deps.io.interrupts.take());
  }

  /** Acts on one interrupt: (a)+(b) for the running turn of its session, (c) a new turn when that session is idle. */
  applyInterrupt(interrupt: InterruptEvent): void {
    const current = this.current;
    if (current && current.turn.session === interrupt.session) {
      current.turn.interrupt(interrupt.text);
      return;
    }
    if (interrupt.text === undefined || interrupt.text.trim() === '') return;
    try {
      this.deps.io.submitInput({ source: interrupt.source, session: interrupt.session, text: interrupt.text, via: 'interrupt' });
    } catch (error) {
      this.deps.log.warn({ session: interrupt.session, source: interrupt.source }, `interrupt dropped: ${(error as Error).message}`);
    }
  }

  private async outputLoop(): Promise<void> {
    for (;;) {
      const output = await this.deps.io.outputs.take();
      try {
        this.deps.deliver(output);
      } catch (error) {
        this.deps.log.warn({ target: output.target }, `output not delivered: ${(error as Error).message}`);
      }
    }
  }

  /** `process`: one turn for one input, ending in exactly one `done` or one `error` for its sender. */
  private async process(input: InputEvent): Promise<void> {
    const { sessions, policy } = this.deps;
    const loopback = input.source === CONSOLIDATION_SOURCE;
    if (loopback && this.deps.io.queue.some((queued) => queued.source !== CONSOLIDATION_SOURCE)) {
      // A person is waiting: the kernel's own question yields and is asked again later.
      this.answer(input, { kind: 'done', text: '', interrupted: true });
      return;
    }
    const home = input.via === 'input' && !loopback ? input.source : undefined;
    // The loop-back source asks the model about the kernel's own data: no conversation, no tools.
    // Picked by the turn while its on_input handlers work.
    const history = loopback ? [] : () => this.deps.contexts.pick(input.session, input.text, { role: 'system', content: policy().systemPrompt }).messages.slice(1);
    const turn = new Turn(
      { session: input.session, text: input.text, history, depth: 0, ...(loopback ? { tools: false } : {}) },
      this.deps.turn,
      {
        delta: (text) => this.answer(input, { kind: 'delta', text }),
        notice: (text) => this.answer(input, { kind: 'notice', text }),
      },
    );
    this.current = { turn, input };
    try {
      const outcome = await turn.run();
      const seq = sessions.append(input.session, outcome.messages, home);
      this.deps.contexts.recordTurn(input.session, seq, outcome.messages);
      if (!loopback) this.deps.afterTurn?.(input.session);
      this.answer(input, outcome.skipped ? { kind: 'done', skipped: true } : { kind: 'done', text: outcome.text, ...(outcome.interrupted ? { interrupted: true } : {}) });
      if (!outcome.skipped) turn.afterOutput(outcome.text);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const name = error instanceof LlmError ? ErrorNames[ErrorCodes.LlmUnavailable] : typeof code === 'number' ? ErrorNames[code] : undefined;
      this.deps.log.warn({ session: input.session, source: input.source }, `turn failed: ${(error as Error).message}`);
      // A turn an interrupt started says what it was about, so a failed reminder is not lost on its reader.
      const about = input.via === 'interrupt' ? { text: input.text } : {};
      this.answer(input, { kind: 'error', code: name ?? ErrorNames[ErrorCodes.TurnFailed]!, error: (error as Error).message, ...about });
    } finally {
      this.current = undefined;
      this.lastBusyAt = Date.now();
      for (const text of turn.takeLeftoverInterrupts()) this.applyInterrupt({ source: input.source, session: input.session, text, at: Date.now() });
    }
  }

  /** Sends output for an input to the plugin that should show it; the loop-back source's output reaches no one. */
  private answer(input: InputEvent, output: Omit<OutputParams, 'session' | 'inputId'>): void {
    if (input.source === CONSOLIDATION_SOURCE) {
      this.deps.loopback?.(input, output);
      return;
    }
    const target = input.via === 'input' ? input.source : this.deps.sessions.homeOf(input.session);
    if (!target) return;
    const event: OutputEvent = { ...output, target, session: input.session };
    if (input.via === 'input' && input.inputId !== undefined) event.inputId = input.inputId;
    // A full output channel means a burst larger than it; deliver at once rather than drop a word.
    if (!this.deps.io.emit(event)) this.deps.deliver(event);
  }
}
