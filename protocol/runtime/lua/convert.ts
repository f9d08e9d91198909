// JavaScript ↔ Lua values, for the kernel's LLM adapters and the plugin host's Lua plugins. The state is passed
// per call, so one converter serves every coroutine of a state. The public Lua API does the work, unless a
// TableFastPath is given (the kernel's, on fengari's internals: kernel/llm/lua/fast-tables.ts).
import { fengari } from './fengari';
import type { LuaState, LuaString } from './fengari-api';

const { lua, lauxlib } = fengari;

/** Stands for JSON `null` inside Lua (`homeagent.null`), where nil would drop the key. */
export const JSON_NULL: object = Object.freeze({ jsonNull: true });

/** How deep a value may nest, either way. */
export const MAX_DEPTH = 100;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A JSON-like value a fast path may hand over as a kept table when an equal one was handed over before. */
export class Reusable {
  constructor(readonly value: unknown) {}
}

/** A faster way to build and read tables, with the same rules as LuaConverter's public-API path. */
export interface TableFastPath {
  /** Pushes a JSON-like value on the stack of L (room for one slot is made by the caller). */
  push(L: LuaState, value: unknown, maxDepth: number): void;
  /** Reads the value on top of the stack of L. */
  readTop(L: LuaState, maxDepth: number): unknown;
  /** Reads the table on top like readTop, except that tables under the `asJson` keys may come back as JSON text. */
  readTopWithJson(L: LuaState, maxDepth: number, asJson: ReadonlySet<string>): unknown;
}

/**
 * JSON arrays become Lua sequences marked with the array metatable (so `[]` stays `[]` on the way back),
 * objects become tables, null becomes nil. Back in JavaScript a marked table or a non-empty sequence 1..n is
 * an array, any other table an object (an empty one `{}`); functions and other non-JSON values are dropped.
 */
export class LuaConverter {
  constructor(
    private readonly arrayMetatableRef: number,
    /** Builds and reads tables instead of the public API when given. */
    private readonly fast?: TableFastPath,
  ) {}

  /** Whether tables are built and read by the fast path. */
  get usesFastPath(): boolean {
    return this.fast !== undefined;
  }

  /** Pushes a JSON-like value onto L; functions and other non-JSON values become nil, a Reusable its value. */
  push(L: LuaState, value: unknown): void {
    if (this.fast === undefined) return this.pushValue(L, value, 0);
    lauxlib.luaL_checkstack(L, 1, null);
    this.fast.push(L, value, MAX_DEPTH);
  }

  /** Reads the value at `index` of L as JSON-like JavaScript; throws on tables nested too deep or in a cycle. */
  toJs(L: LuaState, index: number): unknown {
    if (this.fast !== undefined && (index === -1 || index === lua.lua_gettop(L))) return this.fast.readTop(L, MAX_DEPTH);
    return this.read(L, index, 0);
  }

  /**
   * Reads the value on top like toJs, but a table under one of the `asJson` keys of the top table may come
   * back as the fast path's JSON text (kernel/llm/lua/table-json.ts); without a fast path it is read as usual.
   */
  topToJs(L: LuaState, asJson: ReadonlySet<string>): unknown {
    if (this.fast !== undefined) return this.fast.readTopWithJson(L, MAX_DEPTH, asJson);
    return this.read(L, -1, 0);
  }

  private pushValue(L: LuaState, value: unknown, depth: number): void {
    lauxlib.luaL_checkstack(L, 3, null);
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
        if (value === null) return lua.lua_pushnil(L);
        if (value === JSON_NULL) return lua.lua_pushlightuserdata(L, JSON_NULL);
        if (value instanceof Reusable) return this.pushValue(L, value.value, depth);
        if (depth >= MAX_DEPTH) throw new Error(`value nested deeper than ${MAX_DEPTH} levels`);
        if (Array.isArray(value)) {
          lua.lua_createtable(L, value.length, 0);
          for (let i = 0; i < value.length; i++) {
            this.pushValue(L, value[i], depth + 1);
            lua.lua_rawseti(L, -2, i + 1);
          }
          lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, this.arrayMetatableRef);
          lua.lua_setmetatable(L, -2);
          return;
        }
        lua.lua_createtable(L, 0, 4);
        for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
          if (item === null || item === undefined) continue;
          this.pushValue(L, item, depth + 1);
          lua.lua_setfield(L, -2, encodeString(key));
        }
        return;
      default:
        lua.lua_pushnil(L);
    }
  }

  private read(L: LuaState, index: number, depth: number): unknown {
    const abs = index < 0 ? lua.lua_gettop(L) + index + 1 : index;
    switch (lua.lua_type(L, abs)) {
      case lua.LUA_TNIL:
        return null;
      case lua.LUA_TBOOLEAN:
        return lua.lua_toboolean(L, abs);
      case lua.LUA_TNUMBER: {
        const n = lua.lua_tonumber(L, abs);
        return Number.isFinite(n) ? n : null;
      }
      case lua.LUA_TSTRING:
        return decodeString(lua.lua_tolstring(L, abs));
      case lua.LUA_TLIGHTUSERDATA:
        return lua.lua_touserdata(L, abs) === JSON_NULL ? null : undefined;
      case lua.LUA_TTABLE:
        if (depth >= MAX_DEPTH) throw new Error(`a table is nested deeper than ${MAX_DEPTH} levels (or refers to itself)`);
        return this.readTable(L, abs, depth);
      default:
        return undefined;
    }
  }

  private readTable(L: LuaState, index: number, depth: number): unknown {
    lauxlib.luaL_checkstack(L, 4, null);
    if (this.isMarkedArray(L, index)) {
      const out: unknown[] = [];
      const n = lua.lua_rawlen(L, index);
      for (let i = 1; i <= n; i++) {
        lua.lua_rawgeti(L, index, i);
        out.push(this.read(L, lua.lua_gettop(L), depth + 1) ?? null);
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
      const value = this.read(L, lua.lua_gettop(L), depth + 1);
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

  private isMarkedArray(L: LuaState, index: number): boolean {
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
