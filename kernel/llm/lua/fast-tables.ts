import { internals, stackOf, type Internals, type Table, type TString, type TValue } from '../../../protocol/runtime/internals/fengari';
import { decodeString, encodeString, JSON_NULL, Reusable, type TableFastPath } from '../../../protocol/runtime/lua/convert';
import { fengari } from '../../../protocol/runtime/lua/fengari';
import type { LuaState } from '../../../protocol/runtime/lua/fengari-api';
import { sameJson } from '../same-json';
import { KeptTables } from './table-cache';
import { JsonText, TableJsonWriter } from './table-json';

const { lua } = fengari;

const KEY_CACHE_LIMIT = 4096;

/**
 * Builds JSON-like values as Lua values straight in fengari's structures (one key string per distinct key),
 * reads them back the same way, and keeps the tables of Reusable values between calls (table-cache.ts).
 * One builder serves a state and its coroutines: they share the allocator, each has its own stack.
 */
export class FastTableBuilder implements TableFastPath {
  private readonly keys = new Map<string, TValue>();
  private readonly kept: KeptTables;
  private readonly json: TableJsonWriter;
  // False once the Reusable value being built holds something its JSON text does not show (NaN, a class instance).
  private plain = true;
  // The last Reusable handed over and its key: an equal value (walked, not written out) has the same key.
  private lastReused: { value: unknown; depth: number; key: string | undefined } | undefined;

  private constructor(
    /** The state whose allocator new tables and strings come from. */
    private readonly L: LuaState,
    private readonly lib: Internals,
    private readonly arrayMetatable: object,
  ) {
    this.kept = new KeptTables(lib.types.table);
    this.json = new TableJsonWriter(lib.types, arrayMetatable, JSON_NULL, decodeString, this.kept, KEY_CACHE_LIMIT);
  }

  /**
   * A builder for this state whose arrays get the metatable in the registry under `arrayMetatableRef`, or
   * undefined when fengari's internals are not the ones this was written for.
   */
  static create(L: LuaState, arrayMetatableRef: number): FastTableBuilder | undefined {
    if (internals === undefined) return undefined;
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, arrayMetatableRef);
    const arrayMetatable = lua.lua_topointer(L, -1) as object;
    lua.lua_pop(L, 1);
    return new FastTableBuilder(L, internals, arrayMetatable);
  }

  /** Reads the value on top of the stack of L, with the same rules as LuaConverter.toJs. */
  readTop(L: LuaState, maxDepth: number): unknown {
    const state = stackOf(L);
    const tv = state.stack[state.top - 1];
    return tv === undefined ? null : this.read(tv, 0, maxDepth);
  }

  /**
   * Reads the table on top of the stack like readTop, except that the tables under the keys in `asJson`
   * come back as JsonText: the text JSON.stringify would make of them, written straight from the Lua table.
   */
  readTopWithJson(L: LuaState, maxDepth: number, asJson: ReadonlySet<string>): unknown {
    const state = stackOf(L);
    const tv = state.stack[state.top - 1];
    if (tv === undefined || tv.type !== this.lib.types.table) return this.readTop(L, maxDepth);
    this.kept.beginRead();
    return this.readTable(tv.value as Table, 0, maxDepth, asJson);
  }

  private read(tv: TValue, depth: number, maxDepth: number): unknown {
    const { types } = this.lib;
    switch (tv.type) {
      case types.nil:
        return null;
      case types.boolean:
        return tv.value as boolean;
      case types.int:
        return tv.value as number;
      case types.float:
        return Number.isFinite(tv.value) ? (tv.value as number) : null;
      case types.string:
      case types.shortString:
        return decodeString((tv.value as TString).realstring);
      case types.lightuserdata:
        return tv.value === JSON_NULL ? null : undefined;
      case types.table:
        if (depth >= maxDepth) throw new Error(`a table is nested deeper than ${maxDepth} levels (or refers to itself)`);
        return this.readTable(tv.value as Table, depth, maxDepth);
      default:
        return undefined;
    }
  }

  private readTable(table: Table, depth: number, maxDepth: number, asJson?: ReadonlySet<string>): unknown {
    const { types } = this.lib;
    const marked = table.metatable === this.arrayMetatable;
    const keys: (string | number)[] = [];
    const values: unknown[] = [];
    let sequence = true;
    for (let e = table.f; e !== undefined; e = e.n) {
      const k = e.key;
      const v = e.value as TValue;
      let key: string | number;
      if (k.type === types.int || k.type === types.float) key = k.value as number;
      else if (k.type === types.string || k.type === types.shortString) key = decodeString((k.value as TString).realstring);
      else continue;
      const value =
        asJson !== undefined && typeof key === 'string' && v.type === types.table && asJson.has(key)
          ? new JsonText(this.json.write(v, depth + 1, maxDepth) as string)
          : this.read(v, depth + 1, maxDepth);
      if (value === undefined) continue;
      if (typeof key !== 'number' || !Number.isInteger(key) || key < 1) sequence = false;
      keys.push(key);
      values.push(value);
    }
    if (marked || (sequence && keys.length > 0)) {
      const numeric = keys.every((k) => typeof k === 'number' && Number.isInteger(k) && k >= 1);
      if (numeric) {
        const length = marked ? Math.max(0, ...(keys as number[])) : keys.length;
        if (marked || (keys as number[]).every((k) => k <= length)) {
          const out = new Array<unknown>(length).fill(null);
          for (let i = 0; i < keys.length; i++) out[(keys[i] as number) - 1] = values[i];
          return out;
        }
      }
    }
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) out[String(keys[i])] = values[i];
    return out;
  }

  /** Pushes the value on the stack of L (the caller made room with luaL_checkstack). */
  push(L: LuaState, value: unknown, maxDepth: number): void {
    const state = stackOf(L);
    state.stack[state.top] = this.build(value, 0, maxDepth);
    state.top++;
  }

  private build(value: unknown, depth: number, maxDepth: number): TValue {
    const { TValue, types } = this.lib;
    switch (typeof value) {
      case 'string':
        return new TValue(types.string, this.lib.luaS_bless(this.L, encodeString(value)));
      case 'number':
        if (!Number.isFinite(value)) this.plain = false;
        return (value | 0) === value ? new TValue(types.int, value) : new TValue(types.float, value);
      case 'boolean':
        return new TValue(types.boolean, value);
      case 'object': {
        if (value === null) return new TValue(types.nil, null);
        if (value === JSON_NULL) return new TValue(types.lightuserdata, value);
        if (value instanceof Reusable) return this.reuse(value, depth, maxDepth);
        if (depth >= maxDepth) throw new Error(`value nested deeper than ${maxDepth} levels`);
        const table = this.lib.luaH_new(this.L);
        if (Array.isArray(value)) {
          for (let i = 0; i < value.length; i++) {
            const item = value[i] as unknown;
            if (item !== null && item !== undefined) this.lib.luaH_setint(table, i + 1, this.build(item, depth + 1, maxDepth));
          }
          table.metatable = this.arrayMetatable;
        } else {
          const prototype = Object.getPrototypeOf(value) as unknown;
          if (prototype !== Object.prototype && prototype !== null) this.plain = false;
          const object = value as Record<string, unknown>;
          for (const key in object) {
            const item = object[key];
            if (item === null || item === undefined) continue;
            if (typeof item === 'function') {
              this.plain = false; // it could be a toJSON that makes the JSON text say something else
              continue;
            }
            this.lib.luaH_setfrom(this.L, table, this.keyOf(key), this.build(item, depth + 1, maxDepth));
          }
        }
        return new TValue(types.table, table);
      }
      default:
        return new TValue(types.nil, null);
    }
  }

  // The kept tables of an equal value (same JSON text) when nothing in them changed, else fresh ones, kept.
  private reuse(reusable: Reusable, depth: number, maxDepth: number): TValue {
    const last = this.lastReused;
    const key = last !== undefined && last.depth === depth && sameJson(reusable.value, last.value) ? last.key : keyOf(reusable.value, depth);
    this.lastReused = { value: reusable.value, depth, key };
    const table = key === undefined ? undefined : this.kept.take(key);
    if (table) return new this.lib.TValue(this.lib.types.table, table);
    const outer = this.plain;
    this.plain = true;
    const built = this.build(reusable.value, depth, maxDepth);
    if (this.plain && key !== undefined) this.kept.keep(key, built);
    this.plain = outer;
    return built;
  }

  // One key string per distinct key: its hash is computed once and cached on it.
  private keyOf(key: string): TValue {
    let tv = this.keys.get(key);
    if (tv === undefined) {
      tv = new this.lib.TValue(this.lib.types.string, this.lib.luaS_bless(this.L, encodeString(key)));
      if (this.keys.size < KEY_CACHE_LIMIT && key.length <= 64) this.keys.set(key, tv);
    }
    return tv;
  }
}

// What a kept tree is found by: the JSON text of the value and the depth it was built at (the depth limit
// applies to the tree as a whole); undefined for a value JSON cannot write.
function keyOf(value: unknown, depth: number): string | undefined {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : `${depth}:${text}`;
  } catch {
    return undefined;
  }
}
