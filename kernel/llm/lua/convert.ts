import { FastTableBuilder } from './fast-tables';
import { decodeString, encodeString, JSON_NULL, LuaConverter as PublicApiConverter } from '../../../protocol/lua/convert';
import { fengari } from '../../../protocol/lua/fengari';
import type { LuaState } from '../../../protocol/lua/fengari-api';

export { decodeString, encodeString, JSON_NULL };

const { lua, lauxlib } = fengari;

const MAX_DEPTH = 100;

/**
 * Moves values between JavaScript and one Lua state. JSON arrays become Lua sequences marked with the
 * array metatable (so `[]` stays `[]` on the way back), objects become tables, null becomes nil.
 * Tables are built with fengari's internals when they are there (fast-tables.ts, about three times
 * faster per streamed chunk); otherwise, and for reading anything but the top of the stack, the shared
 * public-API converter does the work.
 */
export class LuaConverter {
  private readonly fast: FastTableBuilder | undefined;
  private readonly slow: PublicApiConverter;

  constructor(
    private readonly L: LuaState,
    arrayMetatableRef: number,
    /** Build tables with fengari's internals when they are there; false keeps to the public API. */
    fastTables = true,
  ) {
    this.slow = new PublicApiConverter(arrayMetatableRef);
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
    if (this.fast === undefined) return this.slow.push(this.L, value, depth);
    lauxlib.luaL_checkstack(this.L, 1, null);
    this.fast.push(value, depth, MAX_DEPTH);
  }

  /** Reads the value at `index` as JSON-like JavaScript; throws on tables nested too deep or in a cycle. */
  toJs(index: number): unknown {
    if (this.fast !== undefined && (index === -1 || index === lua.lua_gettop(this.L))) return this.fast.readTop(MAX_DEPTH);
    return this.slow.toJs(this.L, index);
  }
}
