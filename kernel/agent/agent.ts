import type { Logger } from 'pino';
import { ErrorCodes, ErrorNames, haError, type InterruptResult, type ToolOutputEvent } from '../../protocol';
import { LlmError } from '../llm/errors';
import type { LlmMessage } from '../llm/types';
import { CONSOLIDATION_SOURCE, type AgentDoor, type InputEvent, type InterruptEvent, type IOManager, type OutputEvent } from '../io/io-manager';
import { AgentOutputs, finalOutput, type TurnOutput } from './agent-outputs';
import { Checkpointer } from './checkpointer';
import type { PromptWindows } from './prompt/prompt-windows';
import { freeBytes } from '../startup/facts';
import { diskFullError, isDiskFull, TURN_MIN_FREE_BYTES } from './disk-space';
import { Lanes, type LaneClass } from './lanes';
import type { AgentPolicy } from './policy';
import { cutOffNotice, recoverCutOffTurns, type CutOffTurn } from './recovery';
import type { SessionStore, StoredMessage } from './sessions';
import { describeToolCalls } from './tool-steps';
import { Turn, type TurnDeps, type TurnOutcome } from './turn';

export interface AgentDeps {
  io: IOManager;
  sessions: SessionStore;
  turn: TurnDeps;
  policy: () => AgentPolicy;
  /** Picks each turn's context (recent and relevant turns, memories, knowledge). */
  promptWindows: PromptWindows;
  /** Hands an output to its plugin. */
  deliver(output: OutputEvent): void;
  /** Output of the kernel's own loop-back turns (`_consolidation_`), which reaches no person. */
  loopback?(input: InputEvent, output: TurnOutput): void;
  /** A person's turn ended and was stored (the distill loop has new conversation). */
  afterTurn?(session: string): void;
  /** Whether a plugin can take an output now (it runs): a final output for one that cannot is kept as missed. */
  reaches?(plugin: string): boolean;
  log: Logger;
}

/** Interrupt texts one running turn keeps; later ones join the last, so a flood cannot grow a turn without bound. */
const MAX_PENDING_INTERRUPTS = 16;

/**
 * The main agent. Input is ordered per session, in a lane each; lanes run concurrently up to
 * `core.agent.max_concurrent_turns` (timer turns and the kernel's loop-back have lanes and slots of their
 * own). Every input is written ahead to agent.db before its sender hears it was accepted, and its answer
 * is checkpointed while it streams. Interrupts act at once on their session's running turn and queue.
 */
export class Agent implements AgentDoor {
  private readonly lanes: Lanes<InputEvent>;
  private readonly outputs: AgentOutputs;
  /** The turn of each running input, by input id. */
  private readonly turns = new Map<string, Turn>();
  private state: 'starting' | 'running' | 'stopping' = 'starting';
  private lastBusyAt = Date.now();
  /** Turns a crash cut off, found at construction; their readers are told once plugins run. */
  private readonly cutOff: CutOffTurn[];

  constructor(private readonly deps: AgentDeps) {
    this.outputs = new AgentOutputs({
      ...deps,
      deliver: (output) => this.deliverSafely(output),
      onKeepFailed: (session, error) =>
        deps.log.warn({ session }, `an answer nobody received could not be kept for the session's next client: ${error.message}`),
    });
    this.cutOff = recoverCutOffTurns(deps.sessions);
    for (const turn of this.cutOff) deps.log.warn({ session: turn.row.session }, 'a turn was cut off when homed stopped; kept and marked in its session');
    this.lanes = new Lanes(
      () => deps.policy().lanes,
      (input) => this.process(input),
    );
    deps.io.attach(this);
    // A person's input is not kept waiting behind the kernel's own loop-back work: that turn stops and is retried later.
    deps.io.onInput((input) => {
      if (input.source === CONSOLIDATION_SOURCE) return;
      const loopback = this.lanes.running(laneOf(CONSOLIDATION_SOURCE, 'interrupt'));
      if (loopback) this.turns.get(loopback.id)?.interrupt();
    });
  }

  /** Milliseconds since the agent last ran a turn, or 0 while it runs one or has input waiting. */
  idleForMs(): number {
    if (this.lanes.activeCount() > 0 || this.lanes.waiting() > 0) return 0;
    return Date.now() - this.lastBusyAt;
  }

  /** Turns running now and inputs waiting, for status lines and tests. */
  load(): { running: number; waiting: number } {
    return { running: this.lanes.activeCount(), waiting: this.lanes.waiting() };
  }

  /** Starts running turns, and tells the readers of turns a crash cut off. */
  start(): void {
    this.state = 'running';
    for (const turn of this.cutOff.splice(0)) {
      const target = turn.row.via === 'input' ? turn.row.source : this.deps.sessions.ownerPluginOf(turn.row.session);
      this.outputs.send({ ...cutOffNotice(turn), target: target ?? '', session: turn.row.session });
    }
    this.lanes.resume();
    void this.outputLoop();
  }

  /** Stops taking input: running turns are interrupted and awaited, and every waiting input is answered with an error. */
  async stop(): Promise<void> {
    this.state = 'stopping';
    const message = 'homed is shutting down; send it again once it is back';
    for (const input of this.lanes.removeAll()) this.refuse(input, 'failed', { kind: 'error', code: ErrorNames[ErrorCodes.ShuttingDown]!, error: message });
    for (const turn of this.turns.values()) turn.interrupt();
    await this.lanes.idle();
    this.outputs.flush();
  }

  /** Queues an input in its lane, written ahead to agent.db; answers how many wait ahead of it in its session. */
  accept(input: InputEvent): number {
    if (this.state === 'stopping') throw haError(ErrorCodes.ShuttingDown, 'homed is shutting down; send it again once it is back', { plugin: input.source });
    const lane = laneOf(input.session, input.via, input.source);
    const refusal = this.lanes.refusal(lane);
    if (refusal) {
      const where =
        refusal.full === 'lane'
          ? `session ${input.session} already has ${refusal.limit} messages waiting`
          : `${refusal.limit} messages are waiting in all sessions`;
      throw haError(ErrorCodes.QueueFull, `the agent's input queue is full (${where}); try again shortly`, { plugin: input.source, session: input.session });
    }
    if (input.source !== CONSOLIDATION_SOURCE) this.writeAhead(input);
    const ahead = this.lanes.offer(lane, classOf(input), input);
    if (ahead > 0) {
      this.outputs.answer(input, {
        kind: 'notice',
        text: `[waiting] ${ahead} earlier message${ahead === 1 ? '' : 's'} of this session ${ahead === 1 ? 'is' : 'are'} answered first`,
      });
    } else if (this.state === 'running' && this.lanes.running(lane) !== input) {
      const max = classOf(input) === 'person' ? this.deps.policy().lanes.personTurns : this.deps.policy().lanes.backgroundTurns;
      this.outputs.answer(input, {
        kind: 'notice',
        text: `[waiting] ${max} turns are running (core.agent.max_concurrent_turns); this one starts when one ends`,
      });
    }
    return ahead;
  }

  /**
   * Acts on one interrupt for a session: without text it stops the session's running turns and ends its
   * waiting inputs; with text it is handed to the running turn, else joins a waiting interrupt turn, else
   * starts one.
   */
  interrupt(interrupt: InterruptEvent): InterruptResult {
    if (interrupt.inputId !== undefined) return this.stopOne(interrupt.source, interrupt.session, interrupt.inputId);
    const lanes = [laneOf(interrupt.session, 'input'), laneOf(interrupt.session, 'interrupt')];
    const running = lanes.flatMap((lane) => {
      const input = this.lanes.running(lane);
      const turn = input && this.turns.get(input.id);
      return turn ? [turn] : [];
    });
    const text = interrupt.text !== undefined && interrupt.text.trim() !== '' ? interrupt.text : undefined;
    if (text === undefined) {
      for (const turn of running) turn.interrupt();
      let dropped = 0;
      for (const lane of lanes) {
        for (const input of this.lanes.remove(lane)) {
          dropped++;
          this.refuse(input, 'dropped', { kind: 'done', text: '', interrupted: true });
        }
      }
      return { running: running.length > 0, dropped_queued: dropped };
    }
    const target = running[0];
    if (target) {
      target.interrupt(text, MAX_PENDING_INTERRUPTS);
      return { running: true, dropped_queued: 0 };
    }
    const waiting = this.lanes.queued(lanes[1]!).find((input) => input.via === 'interrupt' && input.source === interrupt.source);
    if (waiting) {
      waiting.text = `${waiting.text}\n${text}`;
      this.deps.sessions.journal.retext(waiting.id, waiting.text);
      return { running: false, dropped_queued: 0, queued: true };
    }
    this.deps.io.submitInput({ source: interrupt.source, session: interrupt.session, text, via: 'interrupt' });
    return { running: false, dropped_queued: 0, queued: true };
  }

  /** Stops one input of a plugin's: its turn if it runs, else it leaves its lane (answered as interrupted). */
  private stopOne(source: string, session: string, inputId: string): InterruptResult {
    const mine = (input: InputEvent): boolean => input.source === source && input.inputId === inputId;
    const lane = laneOf(session, 'input');
    const running = this.lanes.running(lane);
    if (running && mine(running)) {
      this.turns.get(running.id)?.interrupt();
      return { running: true, dropped_queued: 0 };
    }
    const dropped = this.lanes.remove(lane, mine);
    for (const input of dropped) this.refuse(input, 'dropped', { kind: 'done', text: '', interrupted: true });
    return { running: false, dropped_queued: dropped.length };
  }

  private async outputLoop(): Promise<void> {
    for (;;) this.deliverSafely(await this.deps.io.outputs.take());
  }

  /** Hands an output to its plugin; one that cannot be sent is logged, and the outputs after it still go. */
  private deliverSafely(output: OutputEvent): void {
    try {
      this.deps.deliver(output);
    } catch (error) {
      this.deps.log.warn({ target: output.target }, `output not delivered: ${(error as Error).message}`);
    }
  }

  /** Writes the input to the journal; a full disk refuses it with the path and the free space. */
  private writeAhead(input: InputEvent): void {
    try {
      this.deps.sessions.journal.accept(input);
    } catch (error) {
      if (isDiskFull(error)) throw diskFullError(this.deps.sessions.file, 'the message was not stored and not sent to the model');
      throw error;
    }
  }

  /** `process`: one turn for one input, ending in exactly one `done` or one `error` for its sender. */
  private async process(input: InputEvent): Promise<void> {
    const { sessions, policy } = this.deps;
    const loopback = input.source === CONSOLIDATION_SOURCE;
    if (loopback && this.lanes.waiting('person') > 0) {
      // A person is waiting: the kernel's own question yields and is asked again later.
      this.outputs.answer(input, { kind: 'done', text: '', interrupted: true });
      return;
    }
    const ownerPlugin = input.via === 'input' && !loopback ? input.source : undefined;
    const journal = loopback ? undefined : sessions.journal;
    const checkpoint = new Checkpointer(journal, input.id, policy().checkpointMs);
    // The loop-back source asks the model about the kernel's own data: no conversation, no tools.
    // Picked by the turn while its on_input handlers work.
    const history = loopback ? [] : (system: LlmMessage) => this.deps.promptWindows.pick(input.session, input.text, system).messages.slice(1);
    const turn = new Turn({ session: input.session, text: input.text, history, depth: 0, ...(loopback ? { tools: false } : {}) }, this.deps.turn, {
      delta: (text) => {
        checkpoint.add(text);
        this.outputs.answer(input, { kind: 'delta', text });
      },
      notice: (text) => this.outputs.answer(input, { kind: 'notice', text }),
      tool: (event) => {
        this.outputs.answer(input, { kind: 'tool', tool: event });
        if (event.phase === 'end' && !loopback) this.logToolCall(input, event);
      },
    });
    const startedAt = Date.now();
    let ended = 'failed';
    this.turns.set(input.id, turn);
    try {
      if (journal) this.beginJournalled(input, journal);
      const outcome = await turn.run();
      ended = outcome.interrupted ? 'interrupted' : outcome.capped ? 'capped' : outcome.refused ? 'refused' : 'done';
      checkpoint.stop();
      const seq = this.store(input, outcome, ownerPlugin);
      this.deps.promptWindows.recordTurn(input.session, seq, outcome.messages);
      if (!loopback) this.deps.afterTurn?.(input.session);
      this.outputs.answer(input, finalOutput(outcome, policy().maxAnswerChars));
      if (!outcome.skipped) turn.afterOutput(outcome.text);
    } catch (error) {
      checkpoint.stop();
      this.fail(input, error as Error);
    } finally {
      if (!loopback) this.logTurn(input, turn, Date.now() - startedAt, ended);
      this.turns.delete(input.id);
      this.lastBusyAt = Date.now();
      for (const text of turn.takeLeftoverInterrupts()) this.interruptSafely({ source: input.source, session: input.session, text, at: Date.now() });
    }
  }

  /**
   * One line per finished turn: its session, source, duration, the model's tokens in and out, how it ended, and the
   * tools it called (name, ms, outcome).
   */
  private logTurn(input: InputEvent, turn: Turn, ms: number, outcome: string): void {
    const tools = turn.toolCalls.map(({ name, ms: took, outcome: how }) => ({ name, ms: took, outcome: how }));
    const { requests, inputTokens, outputTokens } = turn.usage;
    this.deps.log.info(
      { session: input.session, source: input.source, ms, outcome, requests, tokensIn: inputTokens, tokensOut: outputTokens, tools },
      `turn ${outcome} after ${ms} ms, ${inputTokens} tokens in, ${outputTokens} out: ${describeToolCalls(turn.toolCalls)}`,
    );
  }

  /** One line per tool call as it ends: the tool, the plugin serving it, its duration and how it went. */
  private logToolCall(input: InputEvent, event: ToolOutputEvent): void {
    const plugin = this.deps.turn.tools.ownerOf(event.name);
    this.deps.log.info(
      { session: input.session, tool: event.name, ...(plugin ? { plugin } : {}), ms: event.ms, outcome: event.outcome },
      `tool ${event.name} ${event.outcome} after ${event.ms} ms`,
    );
  }

  /** Marks the input running, after checking there is room to store its answer: a full disk fails it before the model is called. */
  private beginJournalled(input: InputEvent, journal: SessionStore['journal']): void {
    const file = this.deps.sessions.file;
    const free = freeBytes(file);
    if (free !== null && free < TURN_MIN_FREE_BYTES) throw diskFullError(file, 'the message was not answered (it is kept in its session)');
    try {
      journal.started(input.id);
    } catch (error) {
      if (isDiskFull(error)) throw diskFullError(file, 'the message was not answered (it is kept in its session)');
      throw error;
    }
  }

  /** Stores the finished turn and takes its input off the journal, in one transaction. */
  private store(input: InputEvent, outcome: TurnOutcome, ownerPlugin: string | undefined): number {
    const messages: StoredMessage[] = outcome.messages.map((m) => ({ ...m }));
    const flag = outcome.capped ? 'capped' : outcome.interrupted ? 'interrupted' : undefined;
    const last = messages[messages.length - 1];
    if (flag && last?.role === 'assistant') last.flag = flag;
    try {
      return this.deps.sessions.append(input.session, messages, ownerPlugin, input.source === CONSOLIDATION_SOURCE ? undefined : input.id, outcome.agentCalls);
    } catch (error) {
      if (isDiskFull(error))
        throw diskFullError(this.deps.sessions.file, 'the answer could not be stored (what was streamed is kept as of the last checkpoint)');
      throw error;
    }
  }

  private fail(input: InputEvent, error: Error): void {
    const code = (error as { code?: unknown }).code;
    const name = error instanceof LlmError ? ErrorNames[ErrorCodes.LlmUnavailable] : typeof code === 'number' ? ErrorNames[code] : undefined;
    this.deps.log.warn({ session: input.session, source: input.source }, `turn failed: ${error.message}`);
    if (input.source !== CONSOLIDATION_SOURCE && code !== ErrorCodes.DiskFull) {
      try {
        this.deps.sessions.journal.ended(input.id, 'failed', error.message);
      } catch (journalError) {
        this.deps.log.warn({ session: input.session }, `could not mark a failed input: ${(journalError as Error).message}`);
      }
    }
    // A turn an interrupt started says what it was about, so a failed reminder is not lost on its reader.
    const about = input.via === 'interrupt' ? { text: input.text } : {};
    this.outputs.answer(input, { kind: 'error', code: name ?? ErrorNames[ErrorCodes.TurnFailed]!, error: error.message, ...about });
  }

  /** Ends an input that never ran: journalled as failed or dropped, and answered. */
  private refuse(input: InputEvent, state: 'failed' | 'dropped', output: TurnOutput): void {
    if (input.source !== CONSOLIDATION_SOURCE) {
      try {
        this.deps.sessions.journal.ended(input.id, state, output.error ?? 'stopped by an interrupt before it ran');
      } catch (error) {
        this.deps.log.warn({ session: input.session }, `could not mark an ended input: ${(error as Error).message}`);
      }
    }
    this.outputs.answer(input, output);
  }

  private interruptSafely(interrupt: InterruptEvent): void {
    try {
      this.interrupt(interrupt);
    } catch (error) {
      this.deps.log.warn({ session: interrupt.session, source: interrupt.source }, `interrupt dropped: ${(error as Error).message}`);
    }
  }
}

/** The lane of an input: a person's session, or the background lane of a session (timer turns, loop-back). */
function laneOf(session: string, via: InputEvent['via'], source?: string): string {
  return via === 'interrupt' || source === CONSOLIDATION_SOURCE ? `background:${session}` : `session:${session}`;
}

function classOf(input: InputEvent): LaneClass {
  return input.via === 'interrupt' || input.source === CONSOLIDATION_SOURCE ? 'background' : 'person';
}
