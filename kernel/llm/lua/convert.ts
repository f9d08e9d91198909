import { FastTableBuilder } from './fast-tables';
import { fengari } from './fengari';
import type { LuaState, LuaString } from './fengari-api';

const { lua, lauxlib } = fengari;

/** Stands for JSON `null` inside Lua (`json.null`), where nil would drop the key. */
export const JSON_NULL: object = Object.freeze({ jsonNull: true });

const MAX_DEPTH = 100;
const KEY_CACHE_LIMIT = 4096;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Moves values between JavaScript and one Lua state. JSON arrays become Lua sequences marked with the
 * array metatable (so `[]` stays `[]` on the way back), objects become tables, null becomes nil.
 * Back in JavaScript a marked table or a non-empty sequence 1..n is an array, any other table an object.
 */
export class LuaConverter {
  private readonly keys = new Map<string, LuaString>();
  private readonly fast: FastTableBuilder | undefined;

  constructor(
    private readonly L: LuaState,
    private readonly arrayMetatableRef: number,
    /** Build tables with fengari's internals when they are there (see fast-tables.ts); false keeps to the public API. */
    fastTables = true,
  ) {
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, arrayMetatableRef);
    const arrayMetatable = lua.lua_topointer(L, -1) as object;
    lua.lua_pop(L, 1);
    this.fast = fastTables ? FastTableBuilder.create(L, arrayMetatable, JSON_NULL, encodeString, decodeString) : undefined;
  }

  /** Whether tables are built with fengari's internals (the fast path). */
  get usesFastTables(): boolean {
    return this.fast !== undefined;
  }

  /** Pushes a JSON-like value; functions and other non-JSON values become nil. */
  push(value: unknown, depth = 0): void {
    const L = this.L;
    if (this.fast !== undefined) {
      lauxlib.luaL_checkstack(L, 1, null);
      this.fast.push(value, depth, MAX_DEPTH);
      return;
    }
    switch (typeof value) {
      case 'string':
        lua.lua_pushstring(L, encodeString(value));
        return;
      case 'number':
        // fengari integers are 32-bit; anything else travels as a float.
        if ((value | 0) === value) lua.lua_pushinteger(L, value);
        else lua.lua_pushnumber(L, value);
        return;
      case 'boolean':
        lua.lua_pushboolean(L, value);
        return;
      case 'object':
        if (value === null) lua.lua_pushnil(L);
        else if (value === JSON_NULL) lua.lua_pushlightuserdata(L, JSON_NULL);
        else if (Array.isArray(value)) this.pushArray(value, depth);
        else this.pushObject(value as Record<string, unknown>, depth);
        return;
      default:
        lua.lua_pushnil(L);
    }
  }

  /** Reads the value at `index` as JSON-like JavaScript; throws on tables nested too deep or in a cycle. */
  toJs(index: number): unknown {
    if (this.fast !== undefined && (index === -1 || index === lua.lua_gettop(this.L))) return this.fast.readTop(MAX_DEPTH);
    const abs = index < 0 ? lua.lua_gettop(this.L) + index + 1 : index;
    return this.read(abs, 0);
  }

  /** Encodes a table key, caching the short ones that recur in every chunk (`choices`, `delta` …). */
  keyOf(key: string): LuaString {
    let bytes = this.keys.get(key);
    if (bytes === undefined) {
      bytes = encodeString(key);
      if (this.keys.size < KEY_CACHE_LIMIT && key.length <= 64) this.keys.set(key, bytes);
    }
    return bytes;
  }

  private pushArray(items: unknown[], depth: number): void {
    const L = this.L;
    if (depth >= MAX_DEPTH) throw new Error(`value nested deeper than ${MAX_DEPTH} levels`);
    lauxlib.luaL_checkstack(L, 3, null);
    lua.lua_createtable(L, items.length, 0);
    for (let i = 0; i < items.length; i++) {
      this.push(items[i], depth + 1);
      lua.lua_rawseti(L, -2, i + 1);
    }
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, this.arrayMetatableRef);
    lua.lua_setmetatable(L, -2);
  }

  private pushObject(object: Record<string, unknown>, depth: number): void {
    const L = this.L;
    if (depth >= MAX_DEPTH) throw new Error(`value nested deeper than ${MAX_DEPTH} levels`);
    lauxlib.luaL_checkstack(L, 3, null);
    lua.lua_createtable(L, 0, 4);
    for (const key in object) {
      const item = object[key];
      if (item === null || item === undefined) continue;
      this.push(item, depth + 1);
      lua.lua_setfield(L, -2, this.keyOf(key));
    }
  }

  private read(index: number, depth: number): unknown {
    const L = this.L;
    switch (lua.lua_type(L, index)) {
      case lua.LUA_TNIL:
        return null;
      case lua.LUA_TBOOLEAN:
        return lua.lua_toboolean(L, index);
      case lua.LUA_TNUMBER: {
        const n = lua.lua_tonumber(L, index);
        return Number.isFinite(n) ? n : null;
      }
      case lua.LUA_TSTRING:
        return decodeString(lua.lua_tolstring(L, index));
      case lua.LUA_TLIGHTUSERDATA:
        return lua.lua_touserdata(L, index) === JSON_NULL ? null : undefined;
      case lua.LUA_TTABLE:
        if (depth >= MAX_DEPTH) throw new Error(`a table is nested deeper than ${MAX_DEPTH} levels (or refers to itself)`);
        return this.readTable(index, depth);
      default:
        return undefined;
    }
  }

  private readTable(index: number, depth: number): unknown {
    const L = this.L;
    lauxlib.luaL_checkstack(L, 4, null);
    if (this.isMarkedArray(index)) {
      const out: unknown[] = [];
      const n = lua.lua_rawlen(L, index);
      for (let i = 1; i <= n; i++) {
        lua.lua_rawgeti(L, index, i);
        out.push(this.read(lua.lua_gettop(L), depth + 1) ?? null);
        lua.lua_pop(L, 1);
      }
      return out;
    }
    const keys: (string | number)[] = [];
    const values: unknown[] = [];
    let sequence = true;
    lua.lua_pushnil(L);
    while (lua.lua_next(L, index)) {
      const keyType = lua.lua_type(L, -2);
      // lua_tolstring on a number key would turn it into a string in place and break lua_next.
      const key = keyType === lua.LUA_TNUMBER ? lua.lua_tonumber(L, -2) : keyType === lua.LUA_TSTRING ? decodeString(lua.lua_tolstring(L, -2)) : undefined;
      const value = this.read(lua.lua_gettop(L), depth + 1);
      lua.lua_pop(L, 1);
      if (key === undefined || value === undefined) continue;
      if (typeof key !== 'number' || !Number.isInteger(key) || key < 1) sequence = false;
      keys.push(key);
      values.push(value);
    }
    if (sequence && keys.length > 0 && (keys as number[]).every((k) => k <= keys.length)) {
      const out = new Array<unknown>(keys.length);
      for (let i = 0; i < keys.length; i++) out[(keys[i] as number) - 1] = values[i];
      return out;
    }
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) out[String(keys[i])] = values[i];
    return out;
  }

  private isMarkedArray(index: number): boolean {
    const L = this.L;
    if (!lua.lua_getmetatable(L, index)) return false;
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, this.arrayMetatableRef);
    const marked = Boolean(lua.lua_rawequal(L, -1, -2));
    lua.lua_pop(L, 2);
    return marked;
  }
}

/** UTF-8 bytes of a string; short ASCII strings skip TextEncoder, which costs more than the loop for them. */
export function encodeString(text: string): LuaString {
  const n = text.length;
  if (n > 48) return encoder.encode(text);
  const bytes = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f) return encoder.encode(text);
    bytes[i] = c;
  }
  return bytes;
}

/** A Lua string as JavaScript text (invalid UTF-8 becomes U+FFFD). */
export function decodeString(bytes: LuaString | null | undefined): string {
  if (bytes === null || bytes === undefined) return '';
  const n = bytes.length;
  if (n > 48) return decoder.decode(bytes);
  let text = '';
  for (let i = 0; i < n; i++) {
    const c = bytes[i] as number;
    if (c > 0x7f) return decoder.decode(bytes);
    text += String.fromCharCode(c);
  }
  return text;
}
