// The one door to fengari's private internals (pinned at 0.1.5 in package.json). Everything HomeAgent reads or
// writes inside fengari beyond its public Lua C API goes through this file, and
// test/protocol/runtime/internals/fengari.test.ts checks each field and function on a real state, naming the one that
// changed when an upgrade moves it.
//
// fengari's internal modules require each other in a cycle that only resolves when its main module loads
// first; loading one of them before it leaves half-built exports (lobject.TValue undefined).
import '../lua/fengari';
import type { LuaState } from '../lua/fengari-api';

// Building a Lua table through the public API costs a fresh string, a copy and a hex hash for every key
// (`lua_setfield`), which is most of the per-chunk cost of an LLM adapter. fengari's own table code can take
// one cached key string per distinct key instead, so the kernel builds and reads tables directly with it
// (kernel/llm/lua/fast-tables.ts), and keeps to the public API when these internals are not as expected.

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

/** The type tags of fengari's values (lobject's constant_types). */
export interface TypeTags {
  string: number;
  shortString: number;
  int: number;
  float: number;
  boolean: number;
  table: number;
  nil: number;
  lightuserdata: number;
}

/** The parts of fengari the fast table path works with. */
export interface Internals {
  TValue: new (type: number, value: unknown) => TValue;
  luaH_new(L: LuaState): Table;
  luaH_setint(table: Table, key: number, value: TValue): void;
  luaH_setfrom(L: LuaState, table: Table, key: TValue, value: TValue): void;
  luaS_bless(L: LuaState, bytes: Uint8Array): TString;
  types: TypeTags;
}

/** The value stack of a state (or of a coroutine): slots below `top` are in use. */
export interface StackAccess {
  stack: TValue[];
  top: number;
}

/** Each module, function and type tag the fast path needs, by the name fengari gives it. */
export const REQUIRED = {
  'fengari/src/lobject.js': ['TValue'],
  'fengari/src/ltable.js': ['luaH_new', 'luaH_setint', 'luaH_setfrom'],
  'fengari/src/lstring.js': ['luaS_bless'],
  'fengari/src/defs.js constant_types': [
    'LUA_TLNGSTR',
    'LUA_TSHRSTR',
    'LUA_TNUMINT',
    'LUA_TNUMFLT',
    'LUA_TBOOLEAN',
    'LUA_TTABLE',
    'LUA_TNIL',
    'LUA_TLIGHTUSERDATA',
  ],
} as const;

/** What is missing or of another type among REQUIRED, one line each naming it; empty when all is as expected. */
export function findInternalsProblems(): string[] {
  const problems: string[] = [];
  for (const [where, names] of Object.entries(REQUIRED)) {
    const [file, field] = where.split(' ') as [string, string | undefined];
    let exports: Record<string, unknown>;
    try {
      exports = require(file) as Record<string, unknown>;
    } catch (error) {
      problems.push(`${file} cannot be loaded: ${(error as Error).message}`);
      continue;
    }
    const holder = field === undefined ? exports : (exports[field] as Record<string, unknown> | undefined);
    if (typeof holder !== 'object' || holder === null) {
      problems.push(`${where} is not an object`);
      continue;
    }
    const expected = field === undefined ? 'function' : 'number';
    for (const name of names) if (typeof holder[name] !== expected) problems.push(`${where}.${name} is ${typeof holder[name]}, not a ${expected}`);
  }
  return problems;
}

function loadInternals(): Internals | undefined {
  if (findInternalsProblems().length > 0) return undefined;
  const lobject = require('fengari/src/lobject.js') as Record<string, unknown>;
  const ltable = require('fengari/src/ltable.js') as Record<string, unknown>;
  const lstring = require('fengari/src/lstring.js') as Record<string, unknown>;
  const t = (require('fengari/src/defs.js') as { constant_types: Record<string, number> }).constant_types;
  return {
    TValue: lobject['TValue'] as Internals['TValue'],
    luaH_new: ltable['luaH_new'] as Internals['luaH_new'],
    luaH_setint: ltable['luaH_setint'] as Internals['luaH_setint'],
    luaH_setfrom: ltable['luaH_setfrom'] as Internals['luaH_setfrom'],
    luaS_bless: lstring['luaS_bless'] as Internals['luaS_bless'],
    types: {
      string: t['LUA_TLNGSTR'] as number,
      shortString: t['LUA_TSHRSTR'] as number,
      int: t['LUA_TNUMINT'] as number,
      float: t['LUA_TNUMFLT'] as number,
      boolean: t['LUA_TBOOLEAN'] as number,
      table: t['LUA_TTABLE'] as number,
      nil: t['LUA_TNIL'] as number,
      lightuserdata: t['LUA_TLIGHTUSERDATA'] as number,
    },
  };
}

/** fengari's internals, or undefined when they are not the ones this was written for. */
export const internals = loadInternals();

/** The value stack of `L` (fields `stack` and `top` of fengari's lua_State). */
export function stackOf(L: LuaState): StackAccess {
  return L as unknown as StackAccess;
}

/**
 * Turns the hooks of `L` back on (field `allowhook` of fengari's lua_State): fengari 0.1.5's lua_pcallk restores
 * it from a bit it never saved, so an error caught by pcall inside a coroutine would leave the count hook off.
 */
export function allowHooks(L: LuaState): void {
  (L as unknown as { allowhook: number }).allowhook = 1;
}
