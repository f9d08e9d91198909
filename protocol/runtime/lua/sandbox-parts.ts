// The pieces both Lua runtimes build their sandbox from: the kernel's LLM adapters (kernel/llm/lua/sandbox.ts)
// and the plugin host's Lua plugins (plugin-host/lua/plugin.ts).
import { describeLuaValue } from './errors';
import { fengari } from './fengari';
import type { LuaJsFunction, LuaState } from './fengari-api';

const { lua, lauxlib, lualib, to_luastring } = fengari;

// Pure libraries only: no io, no package, no debug; each runtime's prelude cuts os down to its clock functions.
const PURE_LIBRARIES: [string, LuaJsFunction][] = [
  ['_G', lualib.luaopen_base],
  ['string', lualib.luaopen_string],
  ['table', lualib.luaopen_table],
  ['math', lualib.luaopen_math],
  ['utf8', lualib.luaopen_utf8],
  ['coroutine', lualib.luaopen_coroutine],
  ['os', lualib.luaopen_os],
];

/** Opens the pure standard libraries in a fresh state. */
export function openPureLibraries(L: LuaState): void {
  for (const [name, open] of PURE_LIBRARIES) {
    lauxlib.luaL_requiref(L, to_luastring(name), open, 1);
    lua.lua_pop(L, 1);
  }
}

/** Makes the metatable that marks a table as a JSON array (named "array"); returns its registry reference. */
export function createArrayMetatable(L: LuaState): number {
  lua.lua_createtable(L, 0, 1);
  lua.lua_pushstring(L, to_luastring('array'));
  lua.lua_setfield(L, -2, to_luastring('__name'));
  return lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
}

/** `array(t)`: marks t (or, given no table, a new one) as a JSON array, so that `{}` crosses as `[]`; returns it. */
export function markArrayFunction(arrayMetatableRef: number): LuaJsFunction {
  return (state) => {
    if (lua.lua_type(state, 1) !== lua.LUA_TTABLE) {
      lua.lua_settop(state, 0);
      lua.lua_createtable(state, 0, 0);
    }
    lua.lua_settop(state, 1);
    lua.lua_rawgeti(state, lua.LUA_REGISTRYINDEX, arrayMetatableRef);
    lua.lua_setmetatable(state, 1);
    return 1;
  };
}

/** A `print` that hands its arguments, tab-separated, to `sink` as one line. */
export function printFunction(sink: (line: string) => void): LuaJsFunction {
  return (state) => {
    const parts: string[] = [];
    for (let i = 1; i <= lua.lua_gettop(state); i++) parts.push(describeLuaValue(state, i));
    sink(parts.join('\t'));
    return 0;
  };
}

/** Sets `fn` as field `name` of the table on top of the stack. */
export function setFunction(L: LuaState, name: string, fn: LuaJsFunction): void {
  lua.lua_pushjsfunction(L, fn);
  lua.lua_setfield(L, -2, to_luastring(name));
}
