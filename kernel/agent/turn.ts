import type { StageName, StageSnapshot, ToolCall, ToolOutputEvent } from '../../protocol';
import type { LlmMessage, LlmRequest, LlmResult, LlmToolCall, StreamHooks } from '../llm/types';
import { childSessionOf } from './child-session';
import { ChildRegistry } from './children';
import { fromContext, fromWireCall, renderToolResult, toContext, toWireCall } from './messages';
import type { AgentPolicy } from './policy';
import type { StageHost, StageRun } from '../stages/stage-host';
import { composeSystemPrompt } from './prompt/system-prompt';
import { ProgressRelay } from './progress-relay';
import type { ToolOutcome, ToolRouter } from './tool-router';
import { TurnEnv } from './turn-env';
import { shownArgs, shownText, type AgentCallRecord, type ToolCallRecord, type ToolStep } from './tool-steps';

/** What a turn needs: the stages, the tools, an LLM. */
export interface TurnDeps {
  stages: StageHost;
  tools: ToolRouter;
  llm: {
    complete(request: LlmRequest, hooks: StreamHooks): Promise<LlmResult>;
    /** Builds the request ahead of the call, while stage handlers work; the call uses it if it asks for the same. */
    prepare?(request: LlmRequest): void;
  };
  policy: AgentPolicy;
  /** The blocks plugins put in the system prompt now, in plugin-name order (prompt/block). */
  promptBlocks?(): string[];
}

/** Where a turn's words go while it runs. */
export interface TurnSink {
  delta(text: string): void;
  notice(text: string): void;
  /** A step of a tool call: its start, its output as it runs, its end. */
  tool(event: ToolOutputEvent): void;
}

/** A message the turn adds to its session; a tool result carries how its call went. */
export type TurnMessage = LlmMessage & { step?: ToolStep };

export interface TurnOutcome {
  /** The answer (after before_output). */
  text: string;
  /** Cut short by an interrupt without text. */
  interrupted: boolean;
  /** A before_output handler asked not to send it. */
  skipped: boolean;
  /** An on_input handler answered at once that the message cannot be carried out; `text` says why. */
  refused?: boolean;
  /** What this turn adds to the session's history. */
  messages: TurnMessage[];
  /** The answer passed the policy's `maxAnswerChars` and was cut there. */
  capped: boolean;
  /** Its sub-agents' calls that ended, in the order they ended (stored beside `messages`). */
  agentCalls: readonly AgentCallRecord[];
}

export interface TurnSetup {
  session: string;
  text: string;
  /**
   * The conversation before this input; a function is called once, while the on_input handlers work, with the
   * turn's system message (so the window it picks counts it).
   */
  history: LlmMessage[] | ((system: LlmMessage) => LlmMessage[]);
  depth: number;
  /** For a sub-agent: its brief, the facts its parent gave it (added to its system prompt). */
  brief?: string;
  /** False: the model is offered no tools (the kernel's own loop-back questions). */
  tools?: boolean;
}

const INTERRUPT_PREFIX = '[interrupt]';
/** LLM calls one turn restarts to take in interrupt texts; later texts wait for the next round (or a turn of their own). */
const MAX_INTERRUPT_RESTARTS = 2;
/** How an answer cut at the cap ends in the conversation. */
const CAPPED_MARK = '[cut off: the answer passed core.agent.max_answer_chars]';

/** One turn of the agent: stages → LLM → tool calls → stages → output, bounded in rounds. */
export class Turn {
  readonly children: ChildRegistry;
  private readonly stopAll = new AbortController();
  private llmCall: AbortController | undefined;
  private readonly pending: string[] = [];
  private stopped = false;
  /** Characters streamed so far, across rounds; the answer cap counts these. */
  private streamed = 0;
  private capped = false;
  private restarts = 0;
  /** The tool calls this turn ran (or had refused), in the order they ended. */
  readonly toolCalls: ToolCallRecord[] = [];
  /** The model's calls of this turn and the tokens they reported (sub-agents' not included). */
  readonly usage = { requests: 0, inputTokens: 0, outputTokens: 0 };
  /** What this turn adds to its session so far. */
  private readonly added: TurnMessage[] = [];
  /** Its sub-agents' calls that ended, placed among `added` by how many it held then. */
  private readonly agentCalls: AgentCallRecord[] = [];
  /** Arguments of its sub-agents' calls still running, by call id. */
  private readonly agentArgs = new Map<string, string>();
  /** Ids of this turn's tool calls so far: each call's steps are told under an id no other call of the turn has. */
  private readonly callIds = new Set<string>();

  /** The environment granted to this turn's commands; a sub-agent shares its parent's. */
  readonly env: TurnEnv;
  /** This turn made `env` (it is not a sub-agent sharing one), so it forgets it when it ends. */
  private readonly ownsEnv: boolean;

  constructor(
    readonly setup: TurnSetup,
    private readonly deps: TurnDeps,
    private readonly sink: TurnSink,
    env?: TurnEnv,
  ) {
    this.env = env ?? new TurnEnv();
    this.ownsEnv = env === undefined;
    // A sub-agent's text is its parent's tool result; its tool calls are shown to the person, marked as its own.
    this.children = new ChildRegistry(
      setup.depth,
      deps.policy.children,
      (task, brief, depth, id) =>
        new Turn(
          { session: childSessionOf(setup.session), text: task, history: [], depth, ...(brief ? { brief } : {}) },
          deps,
          {
            delta: () => undefined,
            notice: () => undefined,
            tool: (event) => this.agentStep({ ...event, id: `${id}:${event.id}`, agent: event.agent ? `${id}/${event.agent}` : id }),
          },
          this.env,
        ),
    );
  }

  /** A step of a sub-agent's call: shown to the person, and kept once it ends. */
  private agentStep(event: ToolOutputEvent & { agent: string }): void {
    this.sink.tool(event);
    if (event.phase === 'start') this.agentArgs.set(event.id, event.args ?? '{}');
    if (event.phase !== 'end') return;
    const { id, agent, name, ms = 0, outcome = 'ok', denied, result = '' } = event;
    const args = this.agentArgs.get(id) ?? '{}';
    this.agentArgs.delete(id);
    this.agentCalls.push({ agent, id, name, args, result, ms, outcome, ...(denied !== undefined ? { denied } : {}), after: this.added.length, at: Date.now() });
  }

  get session(): string {
    return this.setup.session;
  }

  /**
   * Path (a) and (b): aborts the in-flight LLM request; text is handed to the next round, no text stops the
   * turn. Past `maxPending` waiting texts, a new one joins the last, so a flood stays one bounded message.
   */
  interrupt(text?: string, maxPending = Number.POSITIVE_INFINITY): void {
    if (text !== undefined && text.trim() !== '') {
      if (this.pending.length >= maxPending) this.pending[this.pending.length - 1] += `\n${text}`;
      else this.pending.push(text);
      // A flood of texts must not restart the model call after call.
      if (this.llmCall && !this.llmCall.signal.aborted && this.restarts < MAX_INTERRUPT_RESTARTS) {
        this.restarts++;
        this.llmCall.abort();
      }
      return;
    }
    this.stopped = true;
    this.stopAll.abort();
    this.llmCall?.abort();
    this.children.cancelAll();
  }

  async run(): Promise<TurnOutcome> {
    try {
      return await this.runRounds();
    } finally {
      this.children.cancelAll();
      if (this.ownsEnv) this.env.clear();
    }
  }

  private async runRounds(): Promise<TurnOutcome> {
    const { session } = this.setup;
    const added = this.added;
    const onInputRun = this.stage('on_input', { session, raw_message: this.setup.text });
    onInputRun.catch(() => undefined); // awaited below; should picking the history throw first, it is not left unhandled
    const system = this.systemMessage();
    const history = typeof this.setup.history === 'function' ? this.setup.history(system) : this.setup.history;
    const onInput = await onInputRun;
    const raw = onInput.snapshot.raw_message ?? this.setup.text;
    added.push({ role: 'user', content: raw });
    let final = onInput.snapshot.response;
    let interrupted = false;
    const prompt: LlmMessage[] = [system, ...history, { role: 'user', content: raw }];
    for (let round = 0; final === undefined; round++) {
      if (this.stopped) {
        interrupted = true;
        final = '';
        break;
      }
      if (round >= this.deps.policy.maxIterations) {
        final = `(stopped after ${round} rounds of tool use without a final answer)`;
        break;
      }
      this.drainInterrupts(prompt, added);
      const shown = toContext(prompt);
      const preRun = this.stage('pre_action', { session, raw_message: raw, context_messages: shown });
      // What is sent unless a handler rewrites the context, built into the provider's request while they work.
      const unchanged = fromContext(shown);
      this.deps.llm.prepare?.(this.llmRequest(unchanged));
      const pre = await preRun;
      const patched = pre.snapshot.context_messages;
      const messages = patched && patched !== shown ? fromContext(patched) : unchanged;
      const answer = await this.callLlm(messages);
      if (answer.kind === 'aborted' && this.capped) {
        const cut: LlmMessage = { role: 'assistant', content: `${answer.partial} ${CAPPED_MARK}` };
        prompt.push(cut);
        added.push(cut);
        final = answer.partial;
        break;
      }
      if (answer.kind === 'aborted') {
        if (answer.partial) {
          const cut: LlmMessage = { role: 'assistant', content: `${answer.partial} [cut off by an interrupt]` };
          prompt.push(cut);
          added.push(cut);
        }
        if (this.stopped) {
          interrupted = true;
          final = answer.partial;
        }
        continue;
      }
      const post = await this.stage('post_action', {
        session,
        llm_text: answer.result.text,
        tool_calls: answer.result.toolCalls.map(toWireCall),
        context_messages: toContext(messages),
      });
      const text = post.snapshot.llm_text ?? answer.result.text;
      const calls = (post.snapshot.tool_calls ?? []).map((call) =>
        fromWireCall(
          call,
          answer.result.toolCalls.find((c) => c.id === call.id),
        ),
      );
      const assistant: LlmMessage = calls.length > 0 ? { role: 'assistant', content: text, toolCalls: calls } : { role: 'assistant', content: text };
      prompt.push(assistant);
      added.push(assistant);
      if (calls.length === 0) {
        final = text;
        break;
      }
      const results = await Promise.all(calls.map((call) => this.runToolCall(call)));
      for (const [i, { content, step }] of results.entries()) {
        const message: LlmMessage = { role: 'tool', toolCallId: calls[i]!.id, content };
        prompt.push(message);
        added.push({ ...message, step });
      }
    }
    const out = await this.stage('before_output', { session, final_text: final });
    let text = out.snapshot.final_text ?? final;
    const max = this.deps.policy.maxAnswerChars;
    if (text.length > max) {
      // An answer that did not stream (or that a stage made longer) is held to the same cap.
      text = text.slice(0, max);
      this.capped = true;
    }
    const last = added[added.length - 1];
    const stored = last?.role === 'assistant' && !last.toolCalls && (last.content === text || (this.capped && last.content.startsWith(text)));
    if (!interrupted && !stored) added.push({ role: 'assistant', content: this.capped ? `${text} ${CAPPED_MARK}` : text });
    const refused = onInput.snapshot.response !== undefined && onInput.snapshot.refused === true;
    return {
      text,
      interrupted,
      skipped: out.snapshot.skip_output === true,
      messages: added,
      capped: this.capped,
      agentCalls: this.agentCalls,
      ...(refused ? { refused } : {}),
    };
  }

  /** Interrupt texts that arrived too late for this turn's last LLM call: they start a turn of their own. */
  takeLeftoverInterrupts(): string[] {
    return this.pending.splice(0);
  }

  /** Runs the after_output stage without delaying anyone: its handlers only read. */
  afterOutput(text: string): void {
    void this.deps.stages.run('after_output', { session: this.setup.session, final_text: text }).catch(() => undefined);
  }

  private async callLlm(messages: LlmMessage[]): Promise<{ kind: 'ok'; result: LlmResult } | { kind: 'aborted'; partial: string }> {
    const call = new AbortController();
    this.llmCall = call;
    let partial = '';
    try {
      const result = await this.deps.llm.complete(this.llmRequest(messages), {
        signal: call.signal,
        onNotice: (text) => this.sink.notice(text),
        onText: (delta) => {
          if (this.capped) return;
          const room = this.deps.policy.maxAnswerChars - this.streamed;
          const piece = delta.length > room ? delta.slice(0, room) : delta;
          partial += piece;
          this.streamed += piece.length;
          if (piece) this.sink.delta(piece);
          if (piece.length < delta.length) this.capAnswer(call);
        },
      });
      this.usage.requests++;
      this.usage.inputTokens += result.usage.inputTokens ?? 0;
      this.usage.outputTokens += result.usage.outputTokens ?? 0;
      return { kind: 'ok', result };
    } catch (error) {
      if (call.signal.aborted) return { kind: 'aborted', partial };
      throw error;
    } finally {
      this.llmCall = undefined;
    }
  }

  /** The answer reached its cap: the stream stops, sub-agents end, the turn ends with what it has. */
  private capAnswer(call: AbortController): void {
    this.capped = true;
    this.stopped = true;
    call.abort();
    this.stopAll.abort();
    this.children.cancelAll();
  }

  private llmRequest(messages: LlmMessage[]): LlmRequest {
    return { messages, tools: this.setup.tools === false ? [] : this.deps.tools.specs() };
  }

  /**
   * One tool call: its guard, the call, its after_toolcall stage. The person sees a `start` at once (a second
   * `start` of the same id when a guard rewrote the call), the call's output as it comes, and an `end` with the
   * result, the duration and how it went.
   */
  private async runToolCall(call: LlmToolCall): Promise<{ content: string; step: ToolStep }> {
    const { session } = this.setup;
    const id = this.uniqueCallId(call.id);
    const askedAt = Date.now();
    this.sink.tool({ id, name: call.name, phase: 'start', args: shownArgs(call.args) });
    const guard = await this.stage('before_toolcall', { session, tool_call: toWireCall(call) });
    // The guards' time (a person's approval among it) is reported apart from the call's own run time.
    const startedAt = Date.now();
    const waitMs = startedAt - askedAt;
    if (guard.snapshot.deny) {
      const reason = guard.snapshot.deny_reason ?? 'a guard plugin denied it';
      const content = renderToolResult({ error: `the call was denied: ${reason}` });
      return { content, step: this.endToolCall(id, call.name, startedAt, content, { outcome: 'denied', denied: reason, waitMs }) };
    }
    const chosen = guard.snapshot.tool_call ? fromWireCall(guard.snapshot.tool_call as ToolCall, call) : call;
    if (chosen !== call) this.sink.tool({ id, name: chosen.name, phase: 'start', args: shownArgs(chosen.args) });
    const relay = new ProgressRelay((text) => this.sink.tool({ id, name: chosen.name, phase: 'progress', text }));
    let outcome: ToolOutcome;
    try {
      outcome = await this.deps.tools.invoke(chosen, {
        session,
        signal: this.stopAll.signal,
        children: this.children,
        progress: (text) => relay.push(text),
        env: this.env,
      });
    } finally {
      relay.finish();
    }
    const after = await this.stage('after_toolcall', { session, tool_call: toWireCall(chosen), tool_result: outcome.result });
    const content = renderToolResult(after.snapshot.tool_result ?? outcome.result);
    const how = this.stopAll.signal.aborted ? 'cancelled' : outcome.isError ? 'error' : 'ok';
    return { content, step: this.endToolCall(id, chosen.name, startedAt, content, { outcome: how, waitMs }, outcome.isError) };
  }

  /** Tells the person a call ended and records it for the turn's log line. */
  private endToolCall(id: string, name: string, startedAt: number, content: string, how: Omit<ToolStep, 'ms'>, isError = how.outcome !== 'ok'): ToolStep {
    const step: ToolStep = { ms: Date.now() - startedAt, ...how };
    this.toolCalls.push({ name, ...step });
    this.sink.tool({ id, name, phase: 'end', result: shownText(content), isError, ...step });
    return step;
  }

  /** The model's call id when this turn has not used it yet, else one made unique. */
  private uniqueCallId(wanted: string): string {
    let id = wanted || `call-${this.callIds.size + 1}`;
    for (let n = 2; this.callIds.has(id); n++) id = `${wanted || 'call'}#${n}`;
    this.callIds.add(id);
    return id;
  }

  /** Path (b): interrupt texts reach the next LLM call as system messages. */
  private drainInterrupts(prompt: LlmMessage[], added: LlmMessage[]): void {
    for (const text of this.pending.splice(0)) {
      const message: LlmMessage = { role: 'system', content: `${INTERRUPT_PREFIX} ${text}` };
      prompt.push(message);
      added.push(message);
    }
  }

  /**
   * The system prompt (with a sub-agent's brief), then the plugins' blocks; a turn offered no tools (the kernel's
   * own loop-back questions) gets no blocks, which speak of tools it could not call.
   */
  private systemMessage(): LlmMessage {
    const base = this.deps.policy.systemPrompt;
    const sub =
      this.setup.depth > 0
        ? `\nYou are a sub-agent working on one task; answer with the result only.${this.setup.brief ? `\nContext: ${this.setup.brief}` : ''}`
        : '';
    const blocks = this.setup.tools === false ? [] : (this.deps.promptBlocks?.() ?? []);
    return { role: 'system', content: composeSystemPrompt(base + sub, blocks) };
  }

  /** A stage of this turn; a Stop cancels its handlers (a guard's question to the person is withdrawn). */
  private stage(stage: StageName, snapshot: StageSnapshot): Promise<StageRun> {
    return this.deps.stages.run(stage, snapshot, this.stopAll.signal);
  }
}
