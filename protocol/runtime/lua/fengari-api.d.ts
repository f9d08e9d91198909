// The part of fengari 0.1.5 (Lua 5.3 in JS; no types of its own) that HomeAgent uses: the kernel's LLM
// adapters and the plugin host's Lua plugins. Kept here, beside the wire, because both sides run Lua.
// fengari's API mirrors the C API: lua.h, lauxlib.h and lualib.h, with Lua strings as Uint8Array.

/** A Lua state (lua_State*). */
export interface LuaState {
  readonly __luaState: never;
}

/** A Lua string as fengari holds it: raw bytes. */
export type LuaString = Uint8Array;

/** A function Lua can call: takes the state, returns how many results it pushed. */
export type LuaJsFunction = (L: LuaState) => number;

/** Call information filled by lua_getstack/lua_getinfo. */
export interface LuaDebug {
  currentline: number;
  source: LuaString | null;
  short_src: LuaString | null;
}

export interface FengariLua {
  LUA_OK: number;
  LUA_ERRSYNTAX: number;
  LUA_YIELD: number;
  LUA_MULTRET: number;
  LUA_REGISTRYINDEX: number;
  LUA_MASKCOUNT: number;
  LUA_TNIL: number;
  LUA_TBOOLEAN: number;
  LUA_TLIGHTUSERDATA: number;
  LUA_TNUMBER: number;
  LUA_TSTRING: number;
  LUA_TTABLE: number;
  LUA_TFUNCTION: number;
  lua_Debug: new () => LuaDebug;
  lua_gettop(L: LuaState): number;
  lua_newthread(L: LuaState): LuaState;
  lua_resume(L: LuaState, from: LuaState | null, nargs: number): number;
  lua_yield(L: LuaState, nresults: number): number;
  lua_isyieldable(L: LuaState): boolean | number;
  lua_settop(L: LuaState, index: number): void;
  lua_pop(L: LuaState, n: number): void;
  lua_pushvalue(L: LuaState, index: number): void;
  lua_remove(L: LuaState, index: number): void;
  lua_insert(L: LuaState, index: number): void;
  lua_pushnil(L: LuaState): void;
  lua_pushboolean(L: LuaState, b: boolean | number): void;
  lua_pushnumber(L: LuaState, n: number): void;
  lua_pushinteger(L: LuaState, n: number): void;
  lua_pushstring(L: LuaState, s: LuaString | string): LuaString;
  lua_pushjsfunction(L: LuaState, f: LuaJsFunction): void;
  lua_pushlightuserdata(L: LuaState, p: object): void;
  lua_createtable(L: LuaState, narr: number, nrec: number): void;
  lua_setfield(L: LuaState, index: number, k: LuaString | string): void;
  lua_getfield(L: LuaState, index: number, k: LuaString | string): number;
  lua_rawset(L: LuaState, index: number): void;
  lua_rawseti(L: LuaState, index: number, n: number): void;
  lua_rawgeti(L: LuaState, index: number, n: number): number;
  lua_rawlen(L: LuaState, index: number): number;
  lua_rawequal(L: LuaState, a: number, b: number): boolean | number;
  lua_next(L: LuaState, index: number): boolean | number;
  lua_getmetatable(L: LuaState, index: number): boolean | number;
  lua_setmetatable(L: LuaState, index: number): void;
  lua_getglobal(L: LuaState, name: LuaString | string): number;
  lua_setglobal(L: LuaState, name: LuaString | string): void;
  lua_type(L: LuaState, index: number): number;
  lua_toboolean(L: LuaState, index: number): boolean;
  lua_tonumber(L: LuaState, index: number): number;
  lua_isinteger(L: LuaState, index: number): boolean;
  lua_tojsstring(L: LuaState, index: number): string | null;
  lua_tolstring(L: LuaState, index: number): LuaString | null;
  lua_touserdata(L: LuaState, index: number): unknown;
  lua_topointer(L: LuaState, index: number): unknown;
  lua_pcall(L: LuaState, nargs: number, nresults: number, msgh: number): number;
  lua_sethook(L: LuaState, hook: ((L: LuaState, ar: LuaDebug) => void) | null, mask: number, count: number): void;
  lua_getstack(L: LuaState, level: number, ar: LuaDebug): number;
  lua_getinfo(L: LuaState, what: LuaString, ar: LuaDebug): number;
}

export interface FengariLauxlib {
  luaL_newstate(): LuaState;
  luaL_loadbufferx(L: LuaState, buffer: LuaString, size: number, name: LuaString, mode: LuaString | null): number;
  luaL_requiref(L: LuaState, name: LuaString, open: LuaJsFunction, global: number): void;
  luaL_ref(L: LuaState, table: number): number;
  luaL_unref(L: LuaState, table: number, ref: number): void;
  luaL_error(L: LuaState, fmt: LuaString, ...args: unknown[]): never;
  luaL_checkstack(L: LuaState, n: number, msg: LuaString | null): void;
}

export interface FengariLualib {
  luaopen_base: LuaJsFunction;
  luaopen_string: LuaJsFunction;
  luaopen_table: LuaJsFunction;
  luaopen_math: LuaJsFunction;
  luaopen_utf8: LuaJsFunction;
  luaopen_os: LuaJsFunction;
  luaopen_coroutine: LuaJsFunction;
}

export interface FengariApi {
  lua: FengariLua;
  lauxlib: FengariLauxlib;
  lualib: FengariLualib;
  to_luastring(s: string, cache?: boolean): LuaString;
  to_jsstring(s: LuaString, from?: number, to?: number, replacementChar?: boolean): string;
}
