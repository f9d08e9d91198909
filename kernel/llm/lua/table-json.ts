// Writes a Lua value straight into JSON text: the text JSON.stringify would make of the JavaScript value the
// reader (fast-tables.ts) builds from it, without building that value first (a request body is only ever sent
// as text, and reading it into objects costs about as much again as writing it).
import type { Internals, Table, TString, TValue } from '../../../protocol/runtime/internals/fengari';
import type { KeptTables } from './table-cache';

/** A value read from Lua straight into its JSON text. */
export class JsonText {
  constructor(readonly text: string) {}
}

/** The JSON writer for one Lua state. */
export class TableJsonWriter {
  // JSON text of string keys by fengari's key hash ('' for a key that needs the general case).
  private readonly keyText = new Map<string, string>();

  constructor(
    private readonly types: Internals['types'],
    private readonly arrayMetatable: object,
    private readonly jsonNull: object,
    private readonly decode: (bytes: Uint8Array) => string,
    private readonly kept: KeptTables,
    private readonly keyCacheLimit: number,
  ) {}

  /** The JSON text of a value; undefined where the reader gives undefined (a function, a foreign userdata). */
  write(tv: TValue, depth: number, maxDepth: number): string | undefined {
    const { types } = this;
    switch (tv.type) {
      case types.nil:
        return 'null';
      case types.boolean:
        return tv.value ? 'true' : 'false';
      case types.int:
        return String(tv.value);
      case types.float:
        return Number.isFinite(tv.value) ? JSON.stringify(tv.value) : 'null';
      case types.string:
      case types.shortString:
        return JSON.stringify(this.decode((tv.value as TString).realstring));
      case types.lightuserdata:
        return tv.value === this.jsonNull ? 'null' : undefined;
      case types.table: {
        if (depth >= maxDepth) throw new Error(`a table is nested deeper than ${maxDepth} levels (or refers to itself)`);
        const table = tv.value as Table;
        return this.kept.textOf(table, depth, maxDepth, () => this.writeTable(table, depth, maxDepth)) ?? this.writeTable(table, depth, maxDepth);
      }
      default:
        return undefined;
    }
  }

  // The reader's choice of array or object, then the order JSON.stringify gives a JavaScript object
  // (integer-like keys ascending, then the others in insertion order; a repeated key keeps its first place).
  private writeTable(table: Table, depth: number, maxDepth: number): string {
    const { types } = this;
    const keys: (TString | number)[] = [];
    const values: string[] = [];
    let numericKeys = 0;
    let positiveIntegers = true;
    let largest = 0;
    // The common object: string keys only, none of them integer-like, written as they come.
    let plain = '';
    let plainOk = true;
    for (let e = table.f; e !== undefined; e = e.n) {
      const k = e.key;
      let key: TString | number;
      if (k.type === types.int || k.type === types.float) key = k.value as number;
      else if (k.type === types.string || k.type === types.shortString) key = k.value as TString;
      else continue;
      const value = this.write(e.value as TValue, depth + 1, maxDepth);
      if (value === undefined) continue;
      if (typeof key === 'number') {
        numericKeys++;
        if (Number.isInteger(key) && key >= 1) largest = key > largest ? key : largest;
        else positiveIntegers = false;
      } else if (plainOk) {
        const name = this.quotedKey(key);
        if (name === undefined) plainOk = false;
        else plain += plain === '' ? `${name}:${value}` : `,${name}:${value}`;
      }
      keys.push(key);
      values.push(value);
    }
    const count = keys.length;
    if (numericKeys === count && positiveIntegers && (table.metatable === this.arrayMetatable || (count > 0 && largest === count))) {
      // Every key is a distinct positive integer: unmarked, they are exactly 1…n; marked, holes are null.
      const out = new Array<string>(largest).fill('null');
      for (let i = 0; i < count; i++) out[(keys[i] as number) - 1] = values[i] as string;
      return `[${out.join(',')}]`;
    }
    if (numericKeys === 0 && plainOk) return `{${plain}}`;
    return this.writeObject(keys, values);
  }

  // The general case of an object: a number and a string can name the same property (1 and "1"), two invalid
  // UTF-8 keys can read alike, and integer-like names come first, ascending.
  private writeObject(keys: (TString | number)[], values: string[]): string {
    const byName = new Map<string, string>();
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as TString | number;
      byName.set(typeof key === 'number' ? String(key) : this.decode(key.realstring), values[i] as string);
    }
    const names = [...byName.keys()];
    const indexed = names.filter((name) => arrayIndexOf(name) !== undefined).sort((a, b) => Number(a) - Number(b));
    const ordered = [...indexed, ...names.filter((name) => arrayIndexOf(name) === undefined)];
    return `{${ordered.map((name) => `${JSON.stringify(name)}:${byName.get(name) as string}`).join(',')}}`;
  }

  // A string key as a JSON literal, or undefined when it needs the general case (integer-like, or not valid UTF-8).
  private quotedKey(ts: TString): string | undefined {
    const hash = ts.hash;
    let text = hash === null ? undefined : this.keyText.get(hash);
    if (text !== undefined) return text === '' ? undefined : text;
    const name = this.decode(ts.realstring);
    text = arrayIndexOf(name) !== undefined || name.includes('\ufffd') ? '' : JSON.stringify(name);
    if (hash !== null && this.keyText.size < this.keyCacheLimit) this.keyText.set(hash, text);
    return text === '' ? undefined : text;
  }
}

// The property names a JavaScript object orders first: canonical array indices 0 … 2³² − 2.
function arrayIndexOf(name: string): number | undefined {
  if (name.length === 0 || name.length > 10) return undefined;
  const first = name.charCodeAt(0);
  if (first < 48 || first > 57 || (first === 48 && name.length > 1)) return undefined;
  for (let i = 1; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
  }
  const index = Number(name);
  return index < 4294967295 ? index : undefined;
}
