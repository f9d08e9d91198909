// fengari's internal modules require each other in a cycle that only resolves when its main module loads
// first; loading one of them before it leaves half-built exports (lobject.TValue undefined).
import '../../../protocol/lua/fengari';
import type { LuaState } from '../../../protocol/lua/fengari-api';

// Building a Lua table through the public API costs a fresh string, a copy and a hex hash for every key
// (`lua_setfield`), which is most of the per-chunk cost of an adapter. fengari 0.1.5's own table code can
// take one cached key string per distinct key instead, so tables are built and read directly with it.
// Only used when these internals look as expected; otherwise convert.ts keeps to the public API.

/** A Lua value in fengari: its type tag and its JavaScript payload. */
export interface TValue {
  type: number;
  value: unknown;
}

/** A Lua string: its bytes, and the table key fengari derives from them once it is used as a key. */
export interface TString {
  realstring: Uint8Array;
  hash: string | null;
}

/** One key/value pair of a table, in the table's insertion-ordered list (a removed entry's value is undefined). */
export interface TableEntry {
  key: TValue;
  value: TValue | undefined;
  n: TableEntry | undefined;
}

/** A Lua table: its entries by key hash, and their list. */
export interface Table {
  strong: Map<unknown, TableEntry>;
  f: TableEntry | undefined;
  metatable: object | null;
}

/** The parts of fengari this works with. */
export interface Internals {
  TValue: new (type: number, value: unknown) => TValue;
  luaH_new(L: LuaState): Table;
  luaH_setint(table: Table, key: number, value: TValue): void;
  luaH_setfrom(L: LuaState, table: Table, key: TValue, value: TValue): void;
  luaS_bless(L: LuaState, bytes: Uint8Array): TString;
  types: { string: number; shortString: number; int: number; float: number; boolean: number; table: number; nil: number; lightuserdata: number };
}

/** The value stack of a state. */
export interface StackAccess {
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

/** fengari's internals, or undefined when they are not the ones this was written for. */
export const internals = loadInternals();
