// A provider request built ahead of its call (while a turn waits on its stage handlers), and the check
// that a later call asks for exactly the same thing before it is used.
import type { WireRequest } from './adapter';
import { sameJson } from './same-json';
import type { LlmRequest } from './types';

/** A wire request with what it was built from. */
export class PreparedRequest {
  private readonly parts: unknown[];
  private readonly schemas: unknown[];

  constructor(
    req: LlmRequest,
    readonly wire: WireRequest,
  ) {
    this.parts = fingerprintRequest(req);
    this.schemas = (req.tools ?? []).map((t) => t.parameters);
  }

  /** Whether `req` has the same messages, tools and limits as the request this was built from. */
  matches(req: LlmRequest): boolean {
    const parts = fingerprintRequest(req);
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
