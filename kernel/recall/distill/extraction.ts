// What the distill loop asks the model, and how its answer becomes an Extraction for the memory
// graph: the prompt names the JSON shape; the answer is read leniently (a fenced block, prose
// around it) but each entity and fact is checked, and a bad one is dropped, not guessed at.
import Ajv from 'ajv';
import type { Extraction, ExtractedEntity, ExtractedFact } from '../../memory';
import { shortenText } from '../../llm/fit-request';
import type { LlmMessage } from '../../llm/types';

/**
 * Most tokens of one message in a distill request: a long answer keeps its head and tail, so one huge message does
 * not crowd the others out of the request (every request is held to core.context.budget_tokens as a whole).
 */
const DISTILL_MESSAGE_TOKENS = 1000;

/** One message of the conversation being distilled. */
export interface DistillMessage {
  seq: number;
  role: 'user' | 'assistant';
  text: string;
  at: number;
}

export const DISTILL_INSTRUCTIONS = `You extract long-term memories from a conversation between a person (the owner) and their assistant.
Answer with one JSON object and nothing else:
{"entities":[{"name":"…","kind":"person|place|organization|thing|event|other","aliases":["…"]}],
 "facts":[{"subject":"…","predicate":"snake_case","object":"…","object_is_entity":true|false,"text":"one sentence","single":true|false,"valid_from":"YYYY-MM-DD","from":12}]}
Rules:
- Only durable facts the owner states or confirms: about themselves (subject "owner"), people, places, things, plans, preferences, dates. Not questions, not the assistant's guesses, not small talk.
- predicate: short English snake_case (lives_in, birthday, sister_of, works_at, likes).
- object_is_entity: true when the object is a person, place or thing that could have facts of its own.
- single: true when the predicate holds one value at a time (lives_in, birthday, works_at, age, phone), so a new value replaces the old.
- text: the fact as one sentence in the language the owner used.
- valid_from only when the conversation says when it became true; from: the [#number] of the message it comes from.
- Nothing worth remembering: {"entities":[],"facts":[]}.`;

/** The two messages of a distill request. */
export function buildDistillRequest(session: string, messages: DistillMessage[]): LlmMessage[] {
  const lines = messages.map(
    (m) =>
      `[#${m.seq} ${m.role === 'user' ? 'owner' : 'assistant'}, ${new Date(m.at).toISOString().slice(0, 16)}] ${shortenText(m.text, DISTILL_MESSAGE_TOKENS)}`,
  );
  return [
    { role: 'system', content: DISTILL_INSTRUCTIONS },
    { role: 'user', content: `Conversation ${session}:\n${lines.join('\n')}` },
  ];
}

const ajv = new Ajv({ allErrors: false, strict: false });
const checkEntity = ajv.compile({
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    kind: { type: 'string', maxLength: 40 },
    aliases: { type: 'array', maxItems: 20, items: { type: 'string', minLength: 1, maxLength: 200 } },
  },
});
const checkFact = ajv.compile({
  type: 'object',
  required: ['subject', 'predicate', 'object', 'text'],
  properties: {
    subject: { type: 'string', minLength: 1, maxLength: 200 },
    predicate: { type: 'string', minLength: 1, maxLength: 80 },
    object: { type: ['string', 'number', 'boolean'] },
    object_is_entity: { type: 'boolean' },
    text: { type: 'string', minLength: 1, maxLength: 2000 },
    single: { type: 'boolean' },
    valid_from: { type: ['string', 'null'] },
    from: { type: ['integer', 'string', 'null'] },
  },
});

/** An extraction read from the model's answer, the facts grouped by the message they came from. */
export interface ParsedExtraction {
  entities: ExtractedEntity[];
  /** Facts by source message seq (the batch's first seq when the model did not say). */
  factsBySeq: Map<number, ExtractedFact[]>;
  /** Entities and facts that did not match the shape and were dropped. */
  dropped: number;
}

/** Reads the model's answer; throws when it holds no JSON object at all. */
export function parseExtraction(answer: string, seqs: readonly number[]): ParsedExtraction {
  const json = findJsonObject(answer);
  if (json === undefined) throw new Error(`the answer holds no JSON object: ${JSON.stringify(answer.slice(0, 200))}`);
  const raw = json as { entities?: unknown; facts?: unknown };
  const entities: ExtractedEntity[] = [];
  const factsBySeq = new Map<number, ExtractedFact[]>();
  let dropped = 0;
  for (const item of Array.isArray(raw.entities) ? raw.entities : []) {
    if (!checkEntity(item)) {
      dropped++;
      continue;
    }
    const e = item as { name: string; kind?: string; aliases?: string[] };
    entities.push({ name: e.name.trim(), ...(e.kind ? { kind: e.kind } : {}), ...(e.aliases?.length ? { aliases: e.aliases.map((a) => a.trim()) } : {}) });
  }
  const first = seqs[0] ?? 0;
  for (const item of Array.isArray(raw.facts) ? raw.facts : []) {
    if (!checkFact(item)) {
      dropped++;
      continue;
    }
    const f = item as {
      subject: string;
      predicate: string;
      object: unknown;
      object_is_entity?: boolean;
      text: string;
      single?: boolean;
      valid_from?: string | null;
      from?: unknown;
    };
    const fact: ExtractedFact = {
      subject: f.subject.trim(),
      predicate: normalizePredicate(f.predicate),
      object: String(f.object).trim(),
      text: f.text.trim(),
    };
    if (f.object_is_entity) fact.objectIsEntity = true;
    if (f.single) fact.single = true;
    if (typeof f.valid_from === 'string' && !Number.isNaN(Date.parse(f.valid_from))) fact.validFrom = f.valid_from;
    const from = Number(f.from);
    const seq = seqs.includes(from) ? from : first;
    factsBySeq.set(seq, [...(factsBySeq.get(seq) ?? []), fact]);
  }
  return { entities, factsBySeq, dropped };
}

/** The extraction of one source message, with the entities its facts name. */
export function extractionFor(parsed: ParsedExtraction, facts: ExtractedFact[], withAllEntities: boolean): Extraction {
  if (withAllEntities) return { entities: parsed.entities, facts };
  const named = new Set(facts.flatMap((f) => [f.subject.toLowerCase(), f.object.toLowerCase()]));
  return { entities: parsed.entities.filter((e) => named.has(e.name.toLowerCase())), facts };
}

function normalizePredicate(predicate: string): string {
  return predicate
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '');
}

/** The first parseable JSON object in a text: a fenced block, or from the first `{` to the matching last `}`. */
function findJsonObject(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  for (const candidate of [fenced?.[1], text]) {
    if (candidate === undefined) continue;
    const start = candidate.indexOf('{');
    const end = candidate.lastIndexOf('}');
    if (start < 0 || end <= start) continue;
    try {
      const value: unknown = JSON.parse(candidate.slice(start, end + 1));
      if (value && typeof value === 'object' && !Array.isArray(value)) return value;
    } catch {
      // try the next candidate
    }
  }
  return undefined;
}
