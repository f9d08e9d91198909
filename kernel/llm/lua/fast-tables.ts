// fengari's internal modules require each other in a cycle that only resolves when its main module loads
// first; loading one of them before it leaves half-built exports (lobject.TValue undefined).
import '../../../protocol/lua/fengari';
import type { LuaState } from '../../../protocol/lua/fengari-api';

// Building a Lua table through the public API costs a fresh string, a copy and a hex hash for every key
// (`lua_setfield`), which is most of the per-chunk cost of an adapter. fengari 0.1.5's own table code can
// take one cached key string per distinct key instead, so a chunk's tables are built directly with it.
// Only used when these internals look as expected; otherwise convert.ts keeps to the public API.

interface TValue {
  type: number;
  value: unknown;
}

interface TableEntry {
  key: TValue;
  value: TValue;
  n: TableEntry | undefined;
}

interface Table {
  f: TableEntry | undefined;
  metatable: object | null;
}

interface Internals {
  TValue: new (type: number, value: unknown) => TValue;
  luaH_new(L: LuaState): object;
  luaH_setint(table: object, key: number, value: TValue): void;
  luaH_setfrom(L: LuaState, table: object, key: TValue, value: TValue): void;
  luaS_bless(L: LuaState, bytes: Uint8Array): object;
  types: { string: number; shortString: number; int: number; float: number; boolean: number; table: number; nil: number; lightuserdata: number };
}

interface StackAccess {
  stack: TValue[];
  top: number;
}

function loadInternals(): Internals | undefined {
  try {
    const lobject = require('fengari/src/lobject.js') as Record<string, unknown>;
    const ltable = require('fengari/src/ltable.js') as Record<string, unknown>;
    const lstring = require('fengari/src/lstring.js') as Record<string, unknown>;
    const defs = require('fengari/src/defs.js') as { constant_types?: Record<string, number> };
    const t = defs.constant_types;
    const fns = [lobject['TValue'], ltable['luaH_new'], ltable['luaH_setint'], ltable['luaH_setfrom'], lstring['luaS_bless']];
    if (t === undefined || fns.some((fn) => typeof fn !== 'function')) return undefined;
    const types = { string: t['LUA_TLNGSTR'], shortString: t['LUA_TSHRSTR'], int: t['LUA_TNUMINT'], float: t['LUA_TNUMFLT'], boolean: t['LUA_TBOOLEAN'], table: t['LUA_TTABLE'], nil: t['LUA_TNIL'], lightuserdata: t['LUA_TLIGHTUSERDATA'] };
    if (Object.values(types).some((v) => typeof v !== 'number')) return undefined;
    return {
      TValue: lobject['TValue'] as Internals['TValue'],
      luaH_new: ltable['luaH_new'] as Internals['luaH_new'],
      luaH_setint: ltable['luaH_setint'] as Internals['luaH_setint'],
      luaH_setfrom: ltable['luaH_setfrom'] as Internals['luaH_setfrom'],
      luaS_bless: lstring['luaS_bless'] as Internals['luaS_bless'],
      types: types as Internals['types'],
    };
  } catch {
    return undefined;
  }
}

const internals = loadInternals();

const KEY_CACHE_LIMIT = 4096;

/** Builds JSON-like values as Lua values straight in fengari's structures, reusing one key string per distinct key. */
export class FastTableBuilder {
  private readonly keys = new Map<string, TValue>();

  private constructor(
    private readonly L: LuaState,
    private readonly lib: Internals,
    private readonly arrayMetatable: object,
    private readonly jsonNull: object,
    private readonly encode: (text: string) => Uint8Array,
    private readonly decode: (bytes: Uint8Array) => string,
  ) {}

  /** A builder for this state, or undefined when fengari's internals are not the ones this was written for. */
  static create(
    L: LuaState,
    arrayMetatable: object,
    jsonNull: object,
    encode: (text: string) => Uint8Array,
    decode: (bytes: Uint8Array) => string,
  ): FastTableBuilder | undefined {
    return internals === undefined ? undefined : new FastTableBuilder(L, internals, arrayMetatable, jsonNull, encode, decode);
  }

  /** Reads the value on top of the stack, with the same rules as LuaConverter.toJs. */
  readTop(maxDepth: number): unknown {
    const state = this.L as unknown as StackAccess;
    const tv = state.stack[state.top - 1];
    return tv === undefined ? null : this.read(tv, 0, maxDepth);
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
        return this.decode((tv.value as { realstring: Uint8Array }).realstring);
      case types.lightuserdata:
        return tv.value === this.jsonNull ? null : undefined;
      case types.table:
        if (depth >= maxDepth) throw new Error(`a table is nested deeper than ${maxDepth} levels (or refers to itself)`);
        return this.readTable(tv.value as Table, depth, maxDepth);
      default:
        return undefined;
    }
  }

  private readTable(table: Table, depth: number, maxDepth: number): unknown {
    const { types } = this.lib;
    const marked = table.metatable === this.arrayMetatable;
    const keys: (string | number)[] = [];
    const values: unknown[] = [];
    let sequence = true;
    for (let e = table.f; e !== undefined; e = e.n) {
      const k = e.key;
      let key: string | number;
      if (k.type === types.int || k.type === types.float) key = k.value as number;
      else if (k.type === types.string || k.type === types.shortString) key = this.decode((k.value as { realstring: Uint8Array }).realstring);
      else continue;
      const value = this.read(e.value, depth + 1, maxDepth);
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

  /** Pushes the value on the stack (the caller made room with luaL_checkstack). */
  push(value: unknown, depth: number, maxDepth: number): void {
    const state = this.L as unknown as StackAccess;
    state.stack[state.top] = this.build(value, depth, maxDepth);
    state.top++;
  }

  private build(value: unknown, depth: number, maxDepth: number): TValue {
    const { TValue, types } = this.lib;
    switch (typeof value) {
      case 'string':
        return new TValue(types.string, this.lib.luaS_bless(this.L, this.encode(value)));
      case 'number':
        return (value | 0) === value ? new TValue(types.int, value) : new TValue(types.float, value);
      case 'boolean':
        return new TValue(types.boolean, value);
      case 'object': {
        if (value === null) return new TValue(types.nil, null);
        if (value === this.jsonNull) return new TValue(types.lightuserdata, value);
        if (depth >= maxDepth) throw new Error(`value nested deeper than ${maxDepth} levels`);
        const table = this.lib.luaH_new(this.L);
        if (Array.isArray(value)) {
          for (let i = 0; i < value.length; i++) {
            const item = value[i] as unknown;
            if (item !== null && item !== undefined) this.lib.luaH_setint(table, i + 1, this.build(item, depth + 1, maxDepth));
          }
          (table as { metatable: object | null }).metatable = this.arrayMetatable;
        } else {
          const object = value as Record<string, unknown>;
          for (const key in object) {
            const item = object[key];
            if (item === null || item === undefined || typeof item === 'function') continue;
            this.lib.luaH_setfrom(this.L, table, this.keyOf(key), this.build(item, depth + 1, maxDepth));
          }
        }
        return new TValue(types.table, table);
      }
      default:
        return new TValue(types.nil, null);
    }
  }

  // One key string per distinct key: its hash is computed once and cached on it.
  private keyOf(key: string): TValue {
    let tv = this.keys.get(key);
    if (tv === undefined) {
      tv = new this.lib.TValue(this.lib.types.string, this.lib.luaS_bless(this.L, this.encode(key)));
      if (this.keys.size < KEY_CACHE_LIMIT && key.length <= 64) this.keys.set(key, tv);
    }
    return tv;
  }
}
