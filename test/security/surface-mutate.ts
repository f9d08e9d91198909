// Mutations of generated params: what a hostile or broken caller sends instead of what the schema asks for.
// Each is data (its kind and the random choices it made), so a failing call prints exactly what was sent.
import fc from 'fast-check';

/**
 * Stands for bytes that are no UTF-8 at all: the socket client replaces each one in the encoded line by one of
 * INVALID_UTF8_BYTES (a JSON string cannot hold them; the cli's line reader gets them raw). A noncharacter, so
 * no generated text has it by chance.
 */
export const INVALID_UTF8_MARK = '\uFDD0';

/** Byte sequences that are not UTF-8: a lone continuation byte, an overlong `/`, a cut-off 3-byte sequence, 0xFF, a surrogate's encoding. */
export const INVALID_UTF8_BYTES: readonly Buffer[] = [
  Buffer.from([0x80]),
  Buffer.from([0xc0, 0xaf]),
  Buffer.from([0xe2, 0x82]),
  Buffer.from([0xff, 0xfe]),
  Buffer.from([0xed, 0xa0, 0x80]),
];

/** What a mutation does, with the choices it made. */
export type Mutation =
  | { kind: 'none' }
  | { kind: 'wrong-type'; at: number; value: unknown }
  | { kind: 'huge-string'; at: number; length: number; unit: string }
  | { kind: 'deep-nesting'; at: number; depth: number; shape: 'array' | 'object' }
  | { kind: 'unknown-field'; at: number; key: string; value: unknown }
  | { kind: 'bad-text'; at: number; text: string }
  | { kind: 'extreme-number'; at: number; value: number }
  | { kind: 'top-level'; value: unknown };

/** Keys a JavaScript object treats specially, and a plain unknown one. */
const ODD_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'then', '', 'x'.repeat(300), 'unknown_field'];
/** Text a string field should survive: NUL, lone surrogates, invalid UTF-8 bytes (see INVALID_UTF8_MARK), BOM, RTL override, newlines. */
const BAD_TEXT = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDFFFy',
  '\uDBFF\uDBFF',
  INVALID_UTF8_MARK,
  `name${INVALID_UTF8_MARK}`,
  `${INVALID_UTF8_MARK}${INVALID_UTF8_MARK}${INVALID_UTF8_MARK}`,
  '\uFEFF',
  '\u202Etxt.exe',
  'line\nnext\r\n',
  '%s%n%x',
  '${HOME}',
  '$(id)',
);
const EXTREME_NUMBERS = fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, -(2 ** 53) - 1, -0, 0.5, -1, 2 ** 31, 2 ** 32 + 1, 5e-324, Number.MAX_SAFE_INTEGER);

/** A value of any JSON kind, for a field that expected another kind. */
export const ANY_KIND: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 20 }),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
);

/** Most characters of a huge string: past the socket's 1 MiB line (that answer is LINE_TOO_LONG, and the connection ends). */
const HUGE_LENGTHS = fc.constantFrom(70_000, 250_000, 600_000, 1_100_000);

/** A mutation with its choices; `none` a third of the time, so valid params are called as often as broken ones. */
export function mutationArbitrary(): fc.Arbitrary<Mutation> {
  const at = fc.nat({ max: 1000 });
  return fc.oneof(
    { arbitrary: fc.constant<Mutation>({ kind: 'none' }), weight: 8 },
    { arbitrary: fc.record({ kind: fc.constant('wrong-type' as const), at, value: ANY_KIND }), weight: 4 },
    {
      arbitrary: fc.record({ kind: fc.constant('huge-string' as const), at, length: HUGE_LENGTHS, unit: fc.constantFrom('x', 'é', '字', '😀', '/..') }),
      weight: 1,
    },
    {
      arbitrary: fc.record({
        kind: fc.constant('deep-nesting' as const),
        at,
        depth: fc.constantFrom(64, 1000, 20_000),
        shape: fc.constantFrom('array' as const, 'object' as const),
      }),
      weight: 1,
    },
    {
      arbitrary: fc.record({
        kind: fc.constant('unknown-field' as const),
        at,
        key: fc.oneof(fc.constantFrom(...ODD_KEYS), fc.string({ maxLength: 12 })),
        value: ANY_KIND,
      }),
      weight: 3,
    },
    { arbitrary: fc.record({ kind: fc.constant('bad-text' as const), at, text: BAD_TEXT }), weight: 3 },
    { arbitrary: fc.record({ kind: fc.constant('extreme-number' as const), at, value: EXTREME_NUMBERS }), weight: 2 },
    {
      arbitrary: fc.record({
        kind: fc.constant('top-level' as const),
        value: fc.oneof(fc.constant(null), fc.constant([]), fc.constant('params'), fc.constant(7), fc.constant([{}])),
      }),
      weight: 1,
    },
  );
}

/** `params` with `mutation` applied (a copy; `params` is left as it was). */
export function applyMutation(params: unknown, mutation: Mutation): unknown {
  if (mutation.kind === 'none') return params;
  if (mutation.kind === 'top-level') return mutation.value;
  const copy = structuredClone(params);
  const slots = listSlots(copy);
  switch (mutation.kind) {
    case 'wrong-type':
      return replaceAt(copy, pick(slots, mutation.at), mutation.value);
    case 'huge-string':
      return replaceAt(copy, pick(slots, mutation.at), mutation.unit.repeat(Math.ceil(mutation.length / mutation.unit.length)));
    case 'deep-nesting':
      return replaceAt(copy, pick(slots, mutation.at), nest(mutation.depth, mutation.shape));
    case 'bad-text': {
      const strings = slots.filter((slot) => typeof slot.value === 'string');
      return replaceAt(copy, pick(strings.length > 0 ? strings : slots, mutation.at), mutation.text);
    }
    case 'extreme-number': {
      const numbers = slots.filter((slot) => typeof slot.value === 'number');
      return replaceAt(copy, pick(numbers.length > 0 ? numbers : slots, mutation.at), mutation.value);
    }
    case 'unknown-field': {
      const objects = slots.filter((slot) => isPlainObject(slot.value));
      const target = pick(objects, mutation.at)?.value ?? copy;
      if (isPlainObject(target)) defineOwn(target, mutation.key, mutation.value);
      return copy;
    }
  }
}

/** A place in a value: its parent and key (none for the value itself). */
interface Slot {
  parent: Record<string, unknown> | unknown[] | undefined;
  key: string | number;
  value: unknown;
}

function listSlots(value: unknown): Slot[] {
  const slots: Slot[] = [{ parent: undefined, key: '', value }];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach((child, i) => (slots.push({ parent: node, key: i, value: child }), walk(child)));
    else if (isPlainObject(node)) for (const [key, child] of Object.entries(node)) (slots.push({ parent: node, key, value: child }), walk(child));
  };
  walk(value);
  // The value itself is the last choice: a mutation of one field is what a schema check must catch field by field.
  return slots.length > 1 ? slots.slice(1).concat(slots.slice(0, 1)) : slots;
}

function pick(slots: Slot[], at: number): Slot | undefined {
  return slots.length === 0 ? undefined : slots[at % slots.length];
}

function replaceAt(root: unknown, slot: Slot | undefined, value: unknown): unknown {
  if (!slot || slot.parent === undefined) return value;
  if (Array.isArray(slot.parent)) slot.parent[slot.key as number] = value;
  else defineOwn(slot.parent, slot.key as string, value);
  return root;
}

/** Sets an own, enumerable property even for `__proto__` (plain assignment would change the prototype instead). */
function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * A value nested `depth` levels deep. It stays this marker until the line is written (encodeLine spells it out):
 * JSON.parse reads 100,000 levels, but JSON.stringify overflows the stack near 5,000, so the client cannot make it.
 */
export class DeepValue {
  constructor(
    readonly depth: number,
    readonly shape: 'array' | 'object',
  ) {}

  /** Its JSON text, written without recursion. */
  toJsonText(): string {
    const [open, close] = this.shape === 'array' ? ['[', ']'] : ['{"a":', '}'];
    return `${open.repeat(this.depth)}"bottom"${close.repeat(this.depth)}`;
  }
}

function nest(depth: number, shape: 'array' | 'object'): unknown {
  return new DeepValue(depth, shape);
}

const DEEP_MARK = '\uFDD1';

/** A message as one socket line of bytes: DeepValues spelled out, INVALID_UTF8_MARKs turned into invalid UTF-8. */
export function encodeLine(message: unknown): Buffer {
  const deep: DeepValue[] = [];
  let text = JSON.stringify(message, (_key, value: unknown) => {
    if (!(value instanceof DeepValue)) return value;
    deep.push(value);
    return `${DEEP_MARK}${deep.length - 1}${DEEP_MARK}`;
  });
  text = text.replace(new RegExp(`"${DEEP_MARK}(\\d+)${DEEP_MARK}"`, 'g'), (_m, i: string) => (deep[Number(i)] as DeepValue).toJsonText());
  const marked = Buffer.from(`${text}\n`, 'utf8');
  const mark = Buffer.from(INVALID_UTF8_MARK, 'utf8');
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = marked.indexOf(mark), n = 0; at >= 0; at = marked.indexOf(mark, from), n++) {
    parts.push(marked.subarray(from, at), INVALID_UTF8_BYTES[n % INVALID_UTF8_BYTES.length] as Buffer);
    from = at + mark.length;
  }
  parts.push(marked.subarray(from));
  return Buffer.concat(parts);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
