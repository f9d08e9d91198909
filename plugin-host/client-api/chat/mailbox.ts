// A small, bounded per-session store of turns that finished while nobody listened (a timer's reminder
// after `waiter -say` exited), handed to the next chat/subscribe or chat/say of that session.
import type { ChatStreamItem } from '../../../protocol';

/** How much the mailbox keeps: turns per session, and sessions (the least recently used one goes first). */
export interface MailboxLimits {
  perSession: number;
  sessions: number;
}

/** Enough for a day of reminders nobody read; old enough ones are of little use. */
export const DEFAULT_MAILBOX_LIMITS: MailboxLimits = { perSession: 20, sessions: 100 };

/** Undelivered `missed` items by session; full boxes drop their oldest item, and say so through `put`. */
export class Mailbox {
  // A Map keeps insertion order: re-inserting on put makes the first key the least recently used session.
  private readonly boxes = new Map<string, ChatStreamItem[]>();

  constructor(readonly limits: MailboxLimits = DEFAULT_MAILBOX_LIMITS) {}

  /** Keeps an item for `session`; answers how many older items were dropped to make room. */
  put(session: string, item: ChatStreamItem): number {
    const box = this.boxes.get(session) ?? [];
    this.boxes.delete(session);
    box.push(item);
    let dropped = 0;
    while (box.length > this.limits.perSession) {
      box.shift();
      dropped++;
    }
    this.boxes.set(session, box);
    for (const [oldest, items] of this.boxes) {
      if (this.boxes.size <= this.limits.sessions) break;
      this.boxes.delete(oldest);
      dropped += items.length;
    }
    return dropped;
  }

  /** Removes and returns the items kept for `session`, oldest first. */
  take(session: string): ChatStreamItem[] {
    const box = this.boxes.get(session) ?? [];
    this.boxes.delete(session);
    return box;
  }

  /** Items kept for `session`. */
  count(session: string): number {
    return this.boxes.get(session)?.length ?? 0;
  }
}
