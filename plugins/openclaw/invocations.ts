// Which skill a person invoked (`/name`) in each session's latest message: a skill kept from the model
// (`disable-model-invocation`) may still be read by skill_read in the turn the person asked for it.

/** Sessions remembered at most (the oldest is forgotten first). */
const MAX_SESSIONS = 1000;

export class Invocations {
  private readonly bySession = new Map<string, string>();

  /** The session's latest message invoked `name` (or nothing, when undefined). */
  record(session: string, name: string | undefined): void {
    this.bySession.delete(session);
    if (name === undefined) return;
    this.bySession.set(session, name);
    if (this.bySession.size > MAX_SESSIONS) {
      const oldest = this.bySession.keys().next().value;
      if (oldest !== undefined) this.bySession.delete(oldest);
    }
  }

  /** Whether the session's latest message invoked `name`. */
  invoked(session: string | undefined, name: string): boolean {
    return session !== undefined && this.bySession.get(session) === name;
  }
}
