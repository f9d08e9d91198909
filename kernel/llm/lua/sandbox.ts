import { decodeString, JSON_NULL, LuaConverter } from '../../../protocol/runtime/lua/convert';
import { FastTableBuilder } from './fast-tables';
import { fengari } from '../../../protocol/runtime/lua/fengari';
import type { LuaState } from '../../../protocol/runtime/lua/fengari-api';
import { raiseLuaError } from '../../../protocol/runtime/lua/errors';
import { createArrayMetatable, markArrayFunction, openPureLibraries, printFunction, setFunction } from '../../../protocol/runtime/lua/sandbox-parts';

const { lua, lauxlib, to_luastring } = fengari;

// Only pure libraries (sandbox-parts.ts); os keeps only its clock functions; nothing that loads code from a
// file or from bytes (dofile, loadfile, load, string.dump).
const PRELUDE = `
local clock = os
os = { time = clock.time, clock = clock.clock, date = clock.date, difftime = clock.difftime }
dofile, loadfile, load, loadstring, require, collectgarbage, module = nil, nil, nil, nil, nil, nil, nil
string.dump = nil
`;

/** Opens the sandboxed libraries and the `json` table in a fresh state; returns the converter for it. */
export function openSandbox(L: LuaState, print: (line: string) => void, fastTables = true): LuaConverter {
  openPureLibraries(L);
  const prelude = to_luastring(PRELUDE);
  if (
    lauxlib.luaL_loadbufferx(L, prelude, prelude.length, to_luastring('=prelude'), to_luastring('t')) !== lua.LUA_OK ||
    lua.lua_pcall(L, 0, 0, 0) !== lua.LUA_OK
  ) {
    throw new Error(`Lua sandbox prelude failed: ${lua.lua_tojsstring(L, -1) ?? ''}`);
  }
  const arrayMetatableRef = createArrayMetatable(L);
  const convert = new LuaConverter(arrayMetatableRef, fastTables ? FastTableBuilder.create(L, arrayMetatableRef) : undefined);
  installJson(L, convert, arrayMetatableRef);
  lua.lua_pushjsfunction(L, printFunction(print));
  lua.lua_setglobal(L, to_luastring('print'));
  return convert;
}

// json.encode(value) → text; json.decode(text) → value; json.array(t) marks t as an array (so {} encodes as []);
// json.null stands for null where nil would drop the key.
function installJson(L: LuaState, convert: LuaConverter, arrayMetatableRef: number): void {
  lua.lua_createtable(L, 0, 4);
  setFunction(L, 'encode', (state) => {
    let text: string;
    try {
      text = JSON.stringify(convert.toJs(state, 1)) ?? 'null';
    } catch (error) {
      return raiseLuaError(state, `json.encode: ${(error as Error).message}`);
    }
    lua.lua_pushstring(state, to_luastring(text));
    return 1;
  });
  setFunction(L, 'decode', (state) => {
    const text = lua.lua_type(state, 1) === lua.LUA_TSTRING ? decodeString(lua.lua_tolstring(state, 1)) : undefined;
    if (text === undefined) return raiseLuaError(state, 'json.decode: expects a string');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return raiseLuaError(state, `json.decode: ${(error as Error).message}`);
    }
    convert.push(state, value);
    return 1;
  });
  setFunction(L, 'array', markArrayFunction(arrayMetatableRef));
  lua.lua_pushlightuserdata(L, JSON_NULL);
  lua.lua_setfield(L, -2, to_luastring('null'));
  lua.lua_setglobal(L, to_luastring('json'));
}
