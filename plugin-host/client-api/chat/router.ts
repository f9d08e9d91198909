// Routes the kernel's io/output to whoever waits for it: the chat/say that sent the input, else the
// session's subscribers, else (for a finished turn) the kernel's keeper of missed answers, or where there is none
// (tests of this room alone) the session's mailbox in this process.
import type { PluginLogger } from '../../sdk';
import type { ChatStreamItem, OutputParams } from '../../../protocol';
import { isFinal, toMissedItem, toStreamItem } from './items';
import type { MissedKeeper } from './kernel-missed';
import { Mailbox } from './mailbox';

/** Receives the outputs of one input until its final one. */
export type OutputHandler = (output: OutputParams) => void;
/** Receives a session's outputs that no chat/say waits for. */
export type SessionListener = (item: ChatStreamItem) => void;

/** One per cli plugin process: the `output` handler feeds it, the chat rows read from it. */
export class ChatRouter {
  private readonly waiting = new Map<string, OutputHandler>();
  private readonly listeners = new Map<string, Set<SessionListener>>();

  constructor(
    private readonly log: PluginLogger,
    readonly mailbox: Mailbox = new Mailbox(),
    private readonly now: () => number = Date.now,
    /** The kernel's keeper of answers nobody received; without one, the mailbox keeps them. */
    private readonly keeper?: MissedKeeper,
  ) {}

  /** Sends the outputs answering `inputId` to `handler`, up to and including its `done` or `error`. */
  expect(inputId: string, handler: OutputHandler): void {
    this.waiting.set(inputId, handler);
  }

  /** Stops waiting for `inputId` (its input was refused). */
  forget(inputId: string): void {
    this.waiting.delete(inputId);
  }

  /** Inputs still waiting for their final output. */
  waitingCount(): number {
    return this.waiting.size;
  }

  /** Adds a listener for `session`'s outputs that no chat/say waits for; returns its removal. */
  subscribe(session: string, listener: SessionListener): () => void {
    const set = this.listeners.get(session) ?? new Set<SessionListener>();
    set.add(listener);
    this.listeners.set(session, set);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(session) === set) this.listeners.delete(session);
    };
  }

  /** Listeners following `session` now. */
  followers(session: string): number {
    return this.listeners.get(session)?.size ?? 0;
  }

  /** Removes and returns `session`'s turns that finished while nobody listened, oldest first. */
  async takeMissed(session: string): Promise<ChatStreamItem[]> {
    const local = this.mailbox.take(session);
    return this.keeper ? [...local, ...(await this.keeper.take(session))] : local;
  }

  /** Routes one output from the kernel. */
  deliver(output: OutputParams): void {
    const handler = output.inputId === undefined ? undefined : this.waiting.get(output.inputId);
    if (handler && output.inputId !== undefined) {
      if (isFinal(output)) this.waiting.delete(output.inputId);
      this.call(() => handler(output));
      return;
    }
    // No input of ours waits for it: a turn an interrupt started (a timer), or an answer to an
    // input sent before this process started.
    const listeners = this.listeners.get(output.session);
    if (listeners && listeners.size > 0) {
      const item = toStreamItem(output);
      for (const listener of listeners) this.call(() => listener(item));
      return;
    }
    // A turn whose answer a stage kept back (skipped) has nothing to show later.
    if (!isFinal(output) || output.skipped === true) return;
    if (this.keeper) {
      this.keeper.keep(output);
      return;
    }
    const dropped = this.mailbox.put(output.session, toMissedItem(output, this.now()));
    if (dropped > 0) this.log.warn('chat mailbox full: dropped the oldest undelivered answers', { session: output.session, dropped });
  }

  private call(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.log.error('chat output handler threw', { error: String(error) });
    }
  }
}
