import { FastTableBuilder, JsonText, Reusable } from './fast-tables';
import { decodeString, encodeString, JSON_NULL, LuaConverter as PublicApiConverter } from '../../../protocol/lua/convert';
import { fengari } from '../../../protocol/lua/fengari';
import type { LuaState } from '../../../protocol/lua/fengari-api';

export { decodeString, encodeString, JSON_NULL, JsonText, Reusable };

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

  /** Pushes a JSON-like value; functions and other non-JSON values become nil. A Reusable may come as a kept table. */
  push(value: unknown, depth = 0): void {
    if (this.fast === undefined) return this.slow.push(this.L, unwrapReusable(value), depth);
    lauxlib.luaL_checkstack(this.L, 1, null);
    this.fast.push(value, depth, MAX_DEPTH);
  }

  /** Reads the value at `index` as JSON-like JavaScript; throws on tables nested too deep or in a cycle. */
  toJs(index: number): unknown {
    if (this.fast !== undefined && (index === -1 || index === lua.lua_gettop(this.L))) return this.fast.readTop(MAX_DEPTH);
    return this.slow.toJs(this.L, index);
  }

  /**
   * Reads the value on top like toJs, but a table under one of the `asJson` keys of the top table may come
   * back as JsonText (its JSON.stringify text, written straight from Lua; only with fengari's internals).
   */
  topToJs(asJson: ReadonlySet<string>): unknown {
    if (this.fast !== undefined) return this.fast.readTopWithJson(MAX_DEPTH, asJson);
    return this.slow.toJs(this.L, -1);
  }
}

// Without fengari's internals nothing is kept: a Reusable (at the top or one level down) is pushed as its value.
function unwrapReusable(value: unknown): unknown {
  if (value instanceof Reusable) return value.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  if (!Object.values(record).some((v) => v instanceof Reusable)) return value;
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, v instanceof Reusable ? v.value : v]));
}
