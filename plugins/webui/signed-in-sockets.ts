// The page's open WebSockets by the sign-in each was opened with. A revoked sign-in (homectl webui revoke, a
// sign-out) closes its sockets at once, and each socket closes when its session expires: the cookie was checked
// only at the upgrade, so without this a socket outlived the sign-in that let it in.
import type { LoginStore } from './logins';

/** Ends one socket, with a reason the page can show. */
export type EndSocket = (reason: string) => void;

/** Why a socket was closed. */
export const EndReasons = {
  Revoked: 'signed out: this browser’s sign-in was revoked; run homectl webui open to sign in again',
  Expired: 'signed out: this browser’s sign-in expired; run homectl webui open to sign in again',
} as const;

/** The longest a timer may be set for (setTimeout's 2^31-1 ms, 24.8 days); a later expiry is re-read then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Tracked {
  end: EndSocket;
  timer?: NodeJS.Timeout;
}

/** Open sockets per session id, each closed when its session ends or expires. */
export class SignedInSockets {
  private readonly bySession = new Map<string, Set<Tracked>>();

  constructor(
    private readonly logins: LoginStore,
    private readonly now: () => number = Date.now,
  ) {
    logins.onEnded((ids) => {
      for (const id of ids) this.endSession(id, EndReasons.Revoked);
    });
  }

  /** Follows a socket opened with session `id`; call the returned function once the socket closed by itself. */
  add(id: string, end: EndSocket): () => void {
    const tracked: Tracked = { end };
    const set = this.bySession.get(id) ?? new Set<Tracked>();
    set.add(tracked);
    this.bySession.set(id, set);
    this.armExpiry(id, tracked);
    return () => this.forget(id, tracked);
  }

  /** Sockets open now. */
  get size(): number {
    let count = 0;
    for (const set of this.bySession.values()) count += set.size;
    return count;
  }

  // The expiry is re-read when the timer fires: a session renewed meanwhile (used over HTTP) keeps its socket.
  private armExpiry(id: string, tracked: Tracked): void {
    const expiresAt = this.logins.expiryOf(id);
    if (expiresAt === undefined) return this.endOne(id, tracked, EndReasons.Expired);
    tracked.timer = setTimeout(() => this.armExpiry(id, tracked), Math.min(Math.max(expiresAt - this.now(), 1), MAX_TIMER_MS));
    tracked.timer.unref();
  }

  private endSession(id: string, reason: string): void {
    for (const tracked of [...(this.bySession.get(id) ?? [])]) this.endOne(id, tracked, reason);
  }

  private endOne(id: string, tracked: Tracked, reason: string): void {
    this.forget(id, tracked);
    tracked.end(reason);
  }

  private forget(id: string, tracked: Tracked): void {
    clearTimeout(tracked.timer);
    const set = this.bySession.get(id);
    set?.delete(tracked);
    if (set?.size === 0) this.bySession.delete(id);
  }
}
