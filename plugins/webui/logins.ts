// One-time sign-in links and the browser sessions they become, kept hashed in the plugin's own SQLite file.
// A link's secret and a session's cookie are 256-bit random values; only their SHA-256 is stored, so a copy
// of the file signs nobody in.
import { createHash, randomBytes } from 'node:crypto';
import Database from '../../protocol/runtime/internals/sqlite';

/** How long links and sessions live; renewal happens once a session is past half its life. */
export const LOGIN_POLICY = { linkMs: 10 * 60_000, sessionMs: 30 * 24 * 3600_000, seenEveryMs: 60_000 } as const;

/** A signed-in browser as `homectl webui sessions` lists it. */
export interface WebSession {
  /** Short public id, for revoke. */
  id: string;
  /** When the link was exchanged (ms since the epoch). */
  createdAt: number;
  /** Last request with this session's cookie. */
  lastSeenAt: number;
  /** When the cookie stops working unless used again. */
  expiresAt: number;
  /** The browser's User-Agent at sign-in. */
  userAgent: string;
}

/** A cookie that checked out: its session, and whether its life was just extended (send the cookie again). */
export interface CheckedSession {
  session: WebSession;
  renewed: boolean;
}

interface SessionRow {
  id: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  user_agent: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS links (hash TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY, hash TEXT NOT NULL UNIQUE, created_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, user_agent TEXT NOT NULL
);`;

/** Told the ids of the sessions a revoke or a sign-out just ended. */
export type SessionsEnded = (ids: readonly string[]) => void;

/** Links and sessions; every method is synchronous and sees expiry by `now()`. */
export class LoginStore {
  private readonly db: Database.Database;
  private readonly endListeners = new Set<SessionsEnded>();

  constructor(
    file: string,
    private readonly now: () => number = Date.now,
    /** How long a session lives unused (webui:session_timeout); renewed once past half of it. */
    readonly sessionMs: number = LOGIN_POLICY.sessionMs,
  ) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.exec(SCHEMA);
  }

  /** Makes a one-time secret valid for LOGIN_POLICY.linkMs; only its hash is kept. */
  issueLink(): string {
    const secret = randomSecret();
    this.db.prepare('DELETE FROM links WHERE expires_at <= ?').run(this.now());
    this.db.prepare('INSERT INTO links (hash, expires_at) VALUES (?, ?)').run(hash(secret), this.now() + LOGIN_POLICY.linkMs);
    return secret;
  }

  /** Spends a link's secret: a new session and its cookie token, or undefined for a wrong, used or expired one. */
  redeem(secret: string, userAgent: string): { token: string; session: WebSession } | undefined {
    const spend = this.db.transaction(() => {
      const removed = this.db.prepare('DELETE FROM links WHERE hash = ? AND expires_at > ?').run(hash(secret), this.now());
      if (removed.changes !== 1) return undefined;
      const token = randomSecret();
      const at = this.now();
      const row: SessionRow = {
        id: randomBytes(6).toString('hex'),
        created_at: at,
        last_seen_at: at,
        expires_at: at + this.sessionMs,
        user_agent: userAgent.slice(0, 512),
      };
      this.db
        .prepare(
          'INSERT INTO sessions (id, hash, created_at, last_seen_at, expires_at, user_agent) VALUES (@id, @hash, @created_at, @last_seen_at, @expires_at, @user_agent)',
        )
        .run({ ...row, hash: hash(token) });
      return { token, session: toSession(row) };
    });
    return spend();
  }

  /** Looks a cookie token up; marks it seen, and extends it once it is past half its life. */
  check(token: string): CheckedSession | undefined {
    const at = this.now();
    const row = this.db.prepare('SELECT id, created_at, last_seen_at, expires_at, user_agent FROM sessions WHERE hash = ?').get(hash(token)) as
      SessionRow | undefined;
    if (!row) return undefined;
    if (row.expires_at <= at) {
      this.db.prepare('DELETE FROM sessions WHERE id = ?').run(row.id);
      return undefined;
    }
    const renewed = row.expires_at - at < this.sessionMs / 2;
    if (renewed) row.expires_at = at + this.sessionMs;
    if (renewed || at - row.last_seen_at >= LOGIN_POLICY.seenEveryMs) {
      row.last_seen_at = at;
      this.db.prepare('UPDATE sessions SET last_seen_at = ?, expires_at = ? WHERE id = ?').run(row.last_seen_at, row.expires_at, row.id);
    }
    return { session: toSession(row), renewed };
  }

  /** Every live session, most recently seen first. */
  list(): WebSession[] {
    this.db.prepare('DELETE FROM sessions WHERE expires_at <= ?').run(this.now());
    const rows = this.db.prepare('SELECT id, created_at, last_seen_at, expires_at, user_agent FROM sessions ORDER BY last_seen_at DESC').all() as SessionRow[];
    return rows.map(toSession);
  }

  /** When session `id` expires (ms since the epoch), or undefined when it is gone or past it. */
  expiryOf(id: string): number | undefined {
    const row = this.db.prepare('SELECT expires_at FROM sessions WHERE id = ?').get(id) as { expires_at: number } | undefined;
    return row && row.expires_at > this.now() ? row.expires_at : undefined;
  }

  /** Ends one session by id, or all of them; answers how many ended. */
  revoke(which: { id: string } | { all: true }): number {
    return 'all' in which ? this.end('SELECT id FROM sessions', []) : this.end('SELECT id FROM sessions WHERE id = ?', [which.id]);
  }

  /** Ends the session a cookie token belongs to (sign-out). */
  revokeToken(token: string): number {
    return this.end('SELECT id FROM sessions WHERE hash = ?', [hash(token)]);
  }

  /** Calls `listener` with the ids of the sessions each revoke or sign-out ends; returns the function that stops it. */
  onEnded(listener: SessionsEnded): () => void {
    this.endListeners.add(listener);
    return () => this.endListeners.delete(listener);
  }

  private end(select: string, params: string[]): number {
    const ids = this.db.transaction(() => {
      const found = (this.db.prepare(select).all(...params) as { id: string }[]).map((row) => row.id);
      const remove = this.db.prepare('DELETE FROM sessions WHERE id = ?');
      for (const id of found) remove.run(id);
      return found;
    })();
    if (ids.length > 0) for (const listener of [...this.endListeners]) listener(ids);
    return ids.length;
  }

  close(): void {
    this.db.close();
  }
}

function toSession(row: SessionRow): WebSession {
  return { id: row.id, createdAt: row.created_at, lastSeenAt: row.last_seen_at, expiresAt: row.expires_at, userAgent: row.user_agent };
}

function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}

function hash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
