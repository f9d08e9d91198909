// Small helpers both Lua runtimes use when a JavaScript function called from Lua reports a problem.
import { fengari } from './fengari';
import type { LuaState } from './fengari-api';

const { lua, lauxlib, to_luastring } = fengari;

/** Raises a Lua error at the caller's line (level 1 of a JavaScript function is its Lua caller). */
export function raiseLuaError(L: LuaState, message: string): never {
  return lauxlib.luaL_error(L, to_luastring(message.replace(/%/g, '%%')));
}

/** A short printable form of the Lua value at `index`, for messages. */
export function describeLuaValue(L: LuaState, index: number): string {
  switch (lua.lua_type(L, index)) {
    case lua.LUA_TSTRING:
    case lua.LUA_TNUMBER:
      return lua.lua_tojsstring(L, index) ?? '';
    case lua.LUA_TBOOLEAN:
      return String(lua.lua_toboolean(L, index));
    case lua.LUA_TNIL:
      return 'nil';
    default:
      return `<${lua.lua_type(L, index) === lua.LUA_TTABLE ? 'table' : 'value'}>`;
  }
}
