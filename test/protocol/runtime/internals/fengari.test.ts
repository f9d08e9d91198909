// The contract of protocol/runtime/internals/fengari.ts with the installed fengari: every private field and function it
// relies on exists with the expected shape on a real state, and what the fast path builds and reads agrees with
// fengari's public API. When an upgrade breaks one, the failure names it.
import assert from 'node:assert/strict';
import test from 'node:test';
import {
  allowHooks,
  findInternalsProblems,
  internals,
  REQUIRED,
  stackOf,
  type Internals,
  type Table,
  type TString,
} from '../../../../protocol/runtime/internals/fengari';
import { fengari } from '../../../../protocol/runtime/lua/fengari';
import type { LuaState } from '../../../../protocol/runtime/lua/fengari-api';

const { lua, lauxlib, to_luastring } = fengari;

function lib(): Internals {
  assert.deepEqual(findInternalsProblems(), [], 'fengari internals missing or changed');
  assert.ok(internals !== undefined, 'internals did not load although nothing is reported missing');
  return internals;
}

test('every module, function and type tag the fast path needs is there, with its type', () => {
  const problems = findInternalsProblems();
  assert.deepEqual(problems, [], `fengari changed: ${problems.join('; ')}`);
  assert.deepEqual(Object.keys(REQUIRED).length, 4);
  const types = lib().types;
  assert.equal(new Set(Object.values(types)).size, Object.keys(types).length, 'each type tag is distinct');
});

test('lua_State fields: stack (an array of TValue {type, value}) and top (the next free slot)', () => {
  const { types } = lib();
  const L = lauxlib.luaL_newstate();
  const state = stackOf(L);
  assert.ok(Array.isArray(state.stack), 'lua_State.stack is not an array');
  assert.equal(typeof state.top, 'number', 'lua_State.top is not a number');
  const before = state.top;
  lua.lua_pushinteger(L, 7);
  lua.lua_pushstring(L, to_luastring('seven'));
  assert.equal(state.top, before + 2, 'lua_State.top does not count pushed values');
  assert.deepEqual({ type: state.stack[before]?.type, value: state.stack[before]?.value }, { type: types.int, value: 7 }, 'TValue {type, value} of an integer');
  const text = state.stack[before + 1];
  assert.ok(text !== undefined && (text.type === types.shortString || text.type === types.string), 'TValue.type of a string');
  assert.ok((text.value as TString).realstring instanceof Uint8Array, 'TString.realstring is not a Uint8Array');
});

test('a table built with luaH_new, luaH_setint, luaH_setfrom and luaS_bless reads back through the public API', () => {
  const { TValue, luaH_new, luaH_setint, luaH_setfrom, luaS_bless, types } = lib();
  const L = lauxlib.luaL_newstate();
  const table = luaH_new(L);
  assert.ok(table.strong instanceof Map, 'Table.strong is not a Map');
  assert.equal(table.f, undefined, 'Table.f (the first entry) of a new table');
  assert.equal(table.metatable, null, 'Table.metatable of a new table');
  const key = luaS_bless(L, new TextEncoder().encode('name'));
  assert.ok(key.realstring instanceof Uint8Array && 'hash' in key, 'luaS_bless gives a TString {realstring, hash}');
  luaH_setfrom(L, table, new TValue(types.string, key), new TValue(types.string, luaS_bless(L, new TextEncoder().encode('kettle'))));
  luaH_setint(table, 1, new TValue(types.float, 1.5));
  luaH_setint(table, 2, new TValue(types.boolean, true));
  pushTable(L, table);
  lua.lua_getfield(L, -1, to_luastring('name'));
  assert.equal(lua.lua_tojsstring(L, -1), 'kettle', 'luaH_setfrom with a blessed key');
  lua.lua_pop(L, 1);
  lua.lua_rawgeti(L, -1, 1);
  assert.equal(lua.lua_tonumber(L, -1), 1.5, 'luaH_setint');
  lua.lua_pop(L, 1);
  assert.equal(lua.lua_rawlen(L, -1), 2, 'the length of the sequence set with luaH_setint');
});

test('a table built through the public API lists its entries in order through Table.f and TableEntry {key, value, n}', () => {
  const { types } = lib();
  const L = lauxlib.luaL_newstate();
  lua.lua_createtable(L, 0, 2);
  lua.lua_pushinteger(L, 1);
  lua.lua_setfield(L, -2, to_luastring('a'));
  lua.lua_pushboolean(L, false);
  lua.lua_setfield(L, -2, to_luastring('b'));
  lua.lua_createtable(L, 0, 0);
  lua.lua_setmetatable(L, -2);
  const top = stackOf(L).stack[stackOf(L).top - 1];
  assert.equal(top?.type, types.table, 'TValue.type of a table');
  const table = top.value as Table;
  const seen: [string, unknown][] = [];
  for (let e = table.f; e !== undefined; e = e.n) seen.push([new TextDecoder().decode((e.key.value as TString).realstring), e.value?.value]);
  assert.deepEqual(
    seen,
    [
      ['a', 1],
      ['b', false],
    ],
    'Table.f / TableEntry.n order, TableEntry.key and TableEntry.value',
  );
  assert.equal(table.strong.size, 2, 'Table.strong holds one entry per key');
  assert.ok(table.metatable !== null && typeof table.metatable === 'object', 'Table.metatable after lua_setmetatable');
  // What table-cache.ts relies on to see that a kept table was changed by a script.
  const [first, second] = [table.f, table.f?.n];
  lua.lua_pushinteger(L, 5);
  lua.lua_setfield(L, -2, to_luastring('b'));
  assert.equal(table.f?.n, second, 'a changed value stays in its TableEntry');
  assert.equal(second?.value?.value, 5, 'a changed value is written into its TableEntry in place');
  lua.lua_pushnil(L);
  lua.lua_setfield(L, -2, to_luastring('a'));
  assert.equal(first?.value, undefined, 'a removed key leaves its TableEntry.value undefined');
  assert.equal(table.strong.size, 1, 'a removed key leaves Table.strong');
});

test('allowHooks sets lua_State.allowhook, the field fengari checks before running a hook', () => {
  const L = lauxlib.luaL_newstate();
  const raw = L as unknown as { allowhook?: unknown };
  assert.equal(typeof raw.allowhook, 'number', 'lua_State.allowhook is not a number');
  raw.allowhook = 0;
  let calls = 0;
  lua.lua_sethook(L, () => void calls++, lua.LUA_MASKCOUNT, 1);
  const code = to_luastring('local x = 0 for i = 1, 10 do x = x + i end');
  assert.equal(lauxlib.luaL_loadbufferx(L, code, code.length, to_luastring('=t'), to_luastring('t')), lua.LUA_OK);
  lua.lua_pushvalue(L, -1);
  assert.equal(lua.lua_pcall(L, 0, 0, 0), lua.LUA_OK);
  assert.equal(calls, 0, 'with allowhook 0 the count hook does not run');
  allowHooks(L);
  assert.equal(lua.lua_pcall(L, 0, 0, 0), lua.LUA_OK);
  assert.ok(calls > 0, 'after allowHooks the count hook runs again');
});

function pushTable(L: LuaState, table: Table): void {
  const { TValue, types } = lib();
  const state = stackOf(L);
  state.stack[state.top] = new TValue(types.table, table);
  state.top++;
}
