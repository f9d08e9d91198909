// waiter alone: a prompt with history; answers stream; an approval question is asked at the prompt's place (answered
// no at once when stdin or stdout is not a terminal); Ctrl-C stops an answer (answering no to a question shown); what
// arrives by itself (a timer's reminder) is printed above the prompt.
import * as readline from 'node:readline';
import { SocketApi, type ChatStreamItem } from '../../../protocol';
import { HomedAnswerError, HomedClient } from '../client';
import { ExitCodes } from '../commands/usage';
import { requestTimeoutMs } from '../timeouts';
import type { WaiterArgs } from './args';
import { SessionFollower } from './follower';
import { HISTORY_SIZE, loadHistory, saveHistory } from './history';
import type { WaiterIO } from './io';
import { askOnReadline, type AskLine } from './line-question';
import { QuestionDesk } from './questions';
import { AnswerPrinter, renderMissed, renderNotice, renderUnasked } from './render';
import { TurnSilence } from './silence';

/** The prompt. */
export const PROMPT = '> ';

/** Runs the prompt until Ctrl-D, or Ctrl-C at the prompt; fails at once (exit 3) when homed cannot be reached. */
export async function runInteractive(args: WaiterArgs, io: WaiterIO): Promise<number> {
  const client = await HomedClient.connect(args.socket);
  return new InteractiveSession(args, io, client).run();
}

class InteractiveSession {
  private readonly rl: readline.Interface;
  private readonly follower: SessionFollower;
  private readonly terminal: boolean;
  /** Whether a person can be asked here: stdin and stdout are a terminal. */
  private readonly canAsk: boolean;
  /** The history as last kept: an answer typed to a question does not join it. */
  private history: string[];
  private answering = false;
  private readonly lines: string[] = [];
  private readonly held: string[] = [];
  private busy = false;
  private closing = false;
  private historyBroken = false;
  private stopAnswer: (() => void) | undefined;
  private finish: (code: number) => void = () => undefined;

  constructor(
    private readonly args: WaiterArgs,
    private readonly io: WaiterIO,
    private client: HomedClient,
  ) {
    this.terminal = Boolean(io.stdout.isTTY);
    const typed = Boolean((io.stdin as { isTTY?: boolean }).isTTY);
    this.canAsk = this.terminal && typed;
    this.history = loadHistory(args.historyFile);
    // The prompt is for a person typing: with piped input, stdout carries the answers alone (`answer=$(waiter < file)`).
    this.rl = readline.createInterface({
      input: io.stdin,
      ...(typed ? { output: io.stdout } : {}),
      prompt: PROMPT,
      terminal: this.terminal && typed,
      history: [...this.history],
      historySize: HISTORY_SIZE,
      removeHistoryDuplicates: true,
    });
    this.follower = new SessionFollower(
      args.socket,
      args.session,
      (item) => this.showUnasked(item),
      (error) => this.showAbove(`waiter: stopped following the session (${error.message}); it resumes with your next message`),
    );
  }

  run(): Promise<number> {
    return new Promise((resolve) => {
      const removeSigint = this.io.onSigint(() => this.onCtrlC());
      this.finish = (code) => {
        removeSigint();
        this.follower.close();
        this.client.close();
        resolve(code);
      };
      this.rl.on('line', (line) => this.onLine(line));
      this.rl.on('SIGINT', () => this.onCtrlC());
      this.rl.on('close', () => this.onClose());
      this.rl.on('history', (history: string[]) => this.keepHistory(history));
      if (this.terminal) {
        this.io.stdout.write(`waiter: session ${this.args.session}; Ctrl-C stops an answer, Ctrl-D or Ctrl-C at the prompt quits\n`);
      }
      this.follower.ensure().catch((error: Error) => this.showAbove(`waiter: cannot follow the session: ${error.message}`));
      this.rl.prompt();
    });
  }

  private onLine(line: string): void {
    if (line.trim() === '') {
      if (!this.busy) this.rl.prompt();
      return;
    }
    this.lines.push(line);
    void this.pump();
  }

  /** Asks the queued lines one by one (lines typed or piped during an answer wait their turn). */
  private async pump(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    for (let line = this.lines.shift(); line !== undefined; line = this.lines.shift()) await this.ask(line);
    this.busy = false;
    for (const held of this.held.splice(0)) this.io.stdout.write(`${held}\n`);
    if (this.closing) this.finish(ExitCodes.Ok);
    else this.rl.prompt();
  }

  /** Ctrl-C: during an answer it stops the answer and gives the prompt back; at the prompt it quits. */
  private onCtrlC(): void {
    if (this.stopAnswer) this.stopAnswer();
    else this.rl.close();
  }

  private onClose(): void {
    // The shell's prompt then starts on a line of its own.
    if (this.terminal) this.io.stdout.write('\n');
    this.closing = true;
    if (!this.busy) this.finish(ExitCodes.Ok);
  }

  private async ask(text: string): Promise<void> {
    const client = await this.connection().catch((error: Error) => {
      this.io.stdout.write(`waiter: ${error.message}\n`);
      return undefined;
    });
    if (!client) return;
    this.follower.ensure().catch(() => undefined);
    const questions = new QuestionDesk({
      answer: (id, choice, unasked) => client.call(SocketApi.ApprovalAnswer, { id, choice, ...(unasked === undefined ? {} : { unasked }) }),
      askLine: this.canAsk ? this.askLine() : undefined,
      show: (item) => printer.show(item),
      write: (t) => this.io.stdout.write(t),
      warn: (line) => this.io.stderr.write(`${line}\n`),
    });
    const printer = new AnswerPrinter({
      answer: (t) => this.io.stdout.write(t),
      note: (line) => this.io.stdout.write(`${line}\n`),
      sameScreen: true,
      dim: this.terminal,
      ask: (ask) => questions.take(ask),
    });
    const silence = new TurnSilence(requestTimeoutMs(SocketApi.ChatSay.method));
    let live = true;
    const stopped = new Promise<'stopped'>((resolve) => {
      this.stopAnswer = () => {
        live = false;
        questions.decline();
        client.notify(SocketApi.ChatInterrupt, { session: this.args.session });
        resolve('stopped');
      };
    });
    const answer = client.call(
      SocketApi.ChatSay,
      { session: this.args.session, text },
      {
        onStream: (item) => {
          if (live) questions.pass(item as ChatStreamItem);
        },
        silenceAfter: (item) => silence.after(item as ChatStreamItem),
      },
    );
    // An answer left behind by Ctrl-C may still fail later; nobody waits for it any more.
    answer.catch(() => undefined);
    try {
      const outcome = await Promise.race([answer, stopped]);
      await questions.close();
      if (outcome === 'stopped') {
        printer.endLine();
        this.io.stdout.write('(interrupted)\n');
        return;
      }
      printer.finish(outcome);
      if (outcome.interrupted) this.io.stdout.write('(interrupted)\n');
    } catch (error) {
      await questions.close();
      printer.endLine();
      this.io.stdout.write(`${describeFailure(error)}\n`);
    } finally {
      live = false;
      this.stopAnswer = undefined;
    }
  }

  /** The connection for chat/say, made again if homed went away and came back. */
  private async connection(): Promise<HomedClient> {
    if (this.client.closed) this.client = await HomedClient.connect(this.args.socket);
    return this.client;
  }

  /** A session output no message of this waiter asked for: shown whole when its turn ends. */
  private showUnasked(item: ChatStreamItem): void {
    let line: string | undefined;
    if (item.kind === 'missed') line = renderMissed(item);
    else if (item.kind === 'notice') line = renderNotice(item.text ?? '');
    else if (item.kind === 'done' || item.kind === 'error') line = item.text || item.error ? renderUnasked(item) : undefined;
    if (line === undefined) return;
    if (this.busy) this.held.push(line);
    else this.showAbove(line);
  }

  /** Prints a line above the prompt and redraws the prompt with what the person was typing. */
  private showAbove(line: string): void {
    if (this.closing) return;
    if (this.busy) {
      this.held.push(line);
      return;
    }
    if (this.terminal) {
      readline.clearLine(this.io.stdout, 0);
      readline.cursorTo(this.io.stdout, 0);
    }
    this.io.stdout.write(`${line}\n`);
    this.rl.prompt(true);
  }

  /** Questions asked on the prompt's readline; what is typed to them stays out of the history. */
  private askLine(): AskLine {
    const ask = askOnReadline(this.rl);
    return async (query, signal) => {
      this.answering = true;
      try {
        return await ask(query, signal);
      } finally {
        this.answering = false;
      }
    };
  }

  private keepHistory(history: string[]): void {
    if (this.answering) {
      // readline has just added the answer: put the list back as it was.
      history.splice(0, history.length, ...this.history);
      return;
    }
    this.history = [...history];
    try {
      saveHistory(this.args.historyFile, history);
    } catch (error) {
      if (this.historyBroken) return;
      this.historyBroken = true;
      this.showAbove(`waiter: cannot keep the history in ${this.args.historyFile ?? ''}: ${(error as Error).message}`);
    }
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof HomedAnswerError) return `error: ${error.message} (${error.errorName})`;
  return `waiter: ${error instanceof Error ? error.message : String(error)}`;
}
