// Provider requests built ahead of their calls (while turns wait on their stage handlers), and the check
// that a later call asks for exactly the same thing before one is used.
import type { WireRequest } from './adapter';
import { sameJson } from './same-json';
import type { LlmRequest } from './types';

/** How many requests built ahead one provider keeps, and for how long: about one per turn running at once. */
const KEPT = 16;
const KEPT_MS = 120_000;

/**
 * The requests built ahead for one provider. Turns of several sessions run at once, so several may wait
 * for their calls; a call takes the one built from exactly the same request (each is used once), and one
 * no call took is dropped after a while, or when newer ones push it out.
 */
export class PreparedRequests {
  private entries: PreparedRequest[] = [];

  /** Keeps the wire request built for `req`. */
  add(req: LlmRequest, wire: WireRequest, now: number = Date.now()): void {
    this.entries = this.entries.filter((e) => now - e.builtAt < KEPT_MS);
    this.entries.push(new PreparedRequest(req, wire, now));
    if (this.entries.length > KEPT) this.entries.shift();
  }

  /** Takes out the wire request built for a request that asks exactly what `req` asks, if there is one. */
  take(req: LlmRequest): WireRequest | undefined {
    if (this.entries.length === 0) return undefined;
    const parts = fingerprintRequest(req);
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const entry = this.entries[i] as PreparedRequest;
      if (!entry.matches(req, parts)) continue;
      this.entries.splice(i, 1);
      return entry.wire;
    }
    return undefined;
  }

  /** Requests kept (tests). */
  get size(): number {
    return this.entries.length;
  }
}

/** A wire request with what it was built from. */
export class PreparedRequest {
  private readonly parts: unknown[];
  private readonly schemas: unknown[];

  constructor(
    req: LlmRequest,
    readonly wire: WireRequest,
    /** When it was built (Date.now()). */
    readonly builtAt: number = Date.now(),
  ) {
    this.parts = fingerprintRequest(req);
    this.schemas = (req.tools ?? []).map((t) => t.parameters);
  }

  /** Whether `req` has the same messages, tools and limits as the request this was built from (`parts`: its fingerprint, if made already). */
  matches(req: LlmRequest, parts: unknown[] = fingerprintRequest(req)): boolean {
    if (parts.length !== this.parts.length) return false;
    for (let i = 0; i < parts.length; i++) if (parts[i] !== this.parts[i]) return false;
    // Tool schemas may be rebuilt for every request (the kernel's own tools are): the same JSON, keys in the same order.
    const tools = req.tools ?? [];
    for (let i = 0; i < tools.length; i++) if (!sameJson(tools[i]?.parameters, this.schemas[i])) return false;
    return true;
  }
}

// Everything of the messages an adapter is handed, flattened: the objects themselves (so nothing is deep-compared)
// and the fields read from them (so a changed field is seen even on the same object); tools by name and description.
function fingerprintRequest(req: LlmRequest): unknown[] {
  const parts: unknown[] = [req.maxTokens, req.temperature, req.messages.length];
  for (const m of req.messages) {
    parts.push(m, m.role, m.content, m.toolCallId, m.toolCalls, m.toolCalls?.length);
    for (const c of m.toolCalls ?? []) parts.push(c, c.id, c.name, c.args, c.argsText);
  }
  const tools = req.tools ?? [];
  parts.push(req.tools === undefined, tools.length);
  for (const t of tools) parts.push(t.name, t.description);
  return parts;
}
