// The approval questions of one turn, put to the person one at a time where the answer streams: while one is shown,
// the turn's other items wait (the question pauses the output; the answer resumes it). Each is answered with
// approvals/answer; with no terminal, no at once (the reason on stderr). A question is taken away when its time runs
// out, when the stream shows it was settled without this waiter (the model speaks again, a new round of tool calls
// starts), or when the turn ends. Ctrl-C answers no to every question of the turn, before the turn is interrupted.
import type { ChatStreamItem, OutputAsk } from '../../../protocol';
import { INPUT_ENDED, type AskLine } from './line-question';
import { choiceFor, renderChoiceHint, renderNoTerminal, renderQuestion } from './question-text';

/** The answer given when the person declines, presses Ctrl-C, or cannot be asked. */
const NO = 'no';
/** Why nobody is asked here, for the record (homectl approvals list). */
const NO_TERMINAL = 'waiter has no terminal to ask in (its stdin or output is not a terminal)';
/** How close to its expiry a question taken away counts as unanswered in time. */
const EXPIRY_SLACK_MS = 250;

/** What the desk works with. */
export interface QuestionDeskDeps {
  /**
   * Sends the answer (approvals/answer), written at once; rejects when the question no longer waits. `unasked` says
   * why no person could be asked (no terminal): the kernel then records that nobody was asked, not a person's no.
   */
  answer(id: string, choice: string, unasked?: string): Promise<unknown>;
  /** The terminal to ask in; undefined when there is none. */
  askLine: AskLine | undefined;
  /** Shows a stream item (the answer printer, which hands a question back to `take`). */
  show(item: ChatStreamItem): void;
  /** Writes text where the question shows (line ends included). */
  write(text: string): void;
  /** Writes a line to stderr (why a question was answered no without asking). */
  warn(line: string): void;
  now?(): number;
}

interface Shown {
  ask: OutputAsk;
  /** Aborted when the question is taken away. */
  away: AbortController;
}

/** Asks the questions of one turn in order, holding the stream while one is shown. */
export class QuestionDesk {
  private shown: Shown | undefined;
  private held: ChatStreamItem[] = [];
  private readonly tools = new Set<string>();
  private declined = false;
  private closed = false;
  private asking: Promise<void> | undefined;

  constructor(private readonly deps: QuestionDeskDeps) {}

  /** An item of the turn's stream: shown now, or held while a question is. */
  pass(item: ChatStreamItem): void {
    if (this.settlesQuestions(item)) {
      this.held = this.held.filter((held) => !held.ask);
      this.shown?.away.abort();
    }
    if (item.kind === 'tool' && item.tool?.phase === 'start') this.tools.add(item.tool.id);
    if (this.shown) this.held.push(item);
    else this.deps.show(item);
  }

  /** A question the printer came to: asked now (the stream is held until it is answered or taken away). */
  take(ask: OutputAsk): void {
    if (this.declined || this.closed) {
      if (this.declined) void this.send(ask, NO);
      return;
    }
    const shown: Shown = { ask, away: new AbortController() };
    this.shown = shown;
    if (!this.deps.askLine) {
      this.deps.warn(renderNoTerminal(ask));
      this.asking = this.send(ask, NO, NO_TERMINAL).then(() => {
        this.shown = undefined;
        this.flush();
      });
      return;
    }
    this.asking = this.put(shown, this.deps.askLine).then(async (choice) => {
      this.shown = undefined;
      if (choice !== undefined) await this.send(ask, choice);
      this.flush();
    });
  }

  /** Ctrl-C: answers no to the question shown and to those held, before the caller interrupts the turn. */
  decline(): void {
    this.declined = true;
    const asks = [...(this.shown ? [this.shown.ask] : []), ...this.held.flatMap((item) => (item.ask ? [item.ask] : []))];
    for (const ask of asks) void this.send(ask, NO);
    this.held = this.held.filter((held) => !held.ask);
    this.shown?.away.abort();
  }

  /** The turn ended: a question still shown is taken away, and what was held is shown (its questions are not asked). */
  async close(): Promise<void> {
    this.closed = true;
    this.shown?.away.abort();
    while (this.asking) {
      const asking = this.asking;
      await asking;
      if (this.asking === asking) this.asking = undefined;
    }
    this.flush();
  }

  /** Shows held items until one is a question again. */
  private flush(): void {
    while (!this.shown && this.held.length > 0) this.deps.show(this.held.shift() as ChatStreamItem);
  }

  /**
   * Whether an item shows that every question asked so far was settled: the model speaks again, or a new round of
   * tool calls starts (a round's calls all start before any is asked about; a guard's rewrite repeats a known id).
   */
  private settlesQuestions(item: ChatStreamItem): boolean {
    if (item.kind === 'delta') return (item.text ?? '') !== '';
    // A sub-agent runs beside its parent: its calls say nothing about the parent's questions.
    return item.kind === 'tool' && item.tool?.phase === 'start' && item.tool.agent === undefined && !this.tools.has(item.tool.id);
  }

  /** The person's choice; `no` at the input's end; undefined when taken away or declined. */
  private async put(shown: Shown, askLine: AskLine): Promise<string | undefined> {
    const { ask } = shown;
    const expiry = new AbortController();
    const timer = setTimeout(() => expiry.abort(), Math.max(0, Date.parse(ask.expiresAt) - (this.deps.now?.() ?? Date.now())));
    const signal = AbortSignal.any([expiry.signal, shown.away.signal]);
    try {
      for (let query = renderQuestion(ask); ; query = `(${renderChoiceHint(ask.choices)}) `) {
        const typed = await askLine(query, signal);
        if (typed === INPUT_ENDED) {
          this.deps.write(`${NO}\n`);
          return NO;
        }
        if (typed === undefined) {
          // The kernel's own timeout may take the question away a moment before this process's timer fires (on a
          // loaded machine, timers run late): at its expiry, it went unanswered all the same.
          const expired = expiry.signal.aborted || (this.deps.now?.() ?? Date.now()) >= Date.parse(ask.expiresAt) - EXPIRY_SLACK_MS;
          this.deps.write(this.declined ? `${NO}\n` : expired ? '(no answer in time: denied)\n' : '(no longer asked)\n');
          return undefined;
        }
        const choice = choiceFor(typed, ask.choices);
        if (choice !== undefined) return choice;
      }
    } finally {
      clearTimeout(timer);
    }
  }

  private async send(ask: OutputAsk, choice: string, unasked?: string): Promise<void> {
    try {
      await this.deps.answer(ask.id, choice, unasked);
    } catch (error) {
      if (!this.declined) this.deps.write(`(your answer "${choice}" came too late: ${(error as Error).message})\n`);
    }
  }
}
