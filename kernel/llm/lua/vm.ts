import { encodeString, type LuaConverter } from '../../../protocol/runtime/lua/convert';
import { fengari } from '../../../protocol/runtime/lua/fengari';
import type { LuaDebug, LuaState } from '../../../protocol/runtime/lua/fengari-api';
import { openSandbox } from './sandbox';

const { lua, lauxlib, to_luastring } = fengari;

// Every script is compiled under this chunk name, so Lua prefixes its messages with `script:LINE:`.
const CHUNK_NAME = 'script';
const CHUNK_BYTES = to_luastring(`=${CHUNK_NAME}`);
const POSITION_PREFIX = new RegExp(`^${CHUNK_NAME}:(\\d+): `);
const HOOK_EVERY = 1000;
/** Stack index of the message handler that records the line of an error. */
const HANDLER = 1;

/** How a script is named in errors, and how much it may run per call. */
export interface LuaVmOptions {
  /** Names the script in errors, e.g. `adapter "openai"`. */
  label: string;
  /** The file it came from, shown with the line number. */
  file: string;
  /** Most VM instructions one call may run before it is stopped (default 5 million). */
  instructionBudget?: number;
  /** Receives what the script prints. */
  print?: (line: string) => void;
  /** Build Lua tables with fengari's internals (default true; false keeps to its public API, about 4× slower per chunk). */
  fastTables?: boolean;
}

/** A Lua error (syntax or runtime) with where it happened: `adapter "openai" (/x/openai.lua:42): attempt to index a nil value`. */
export class LuaScriptError extends Error {
  override readonly name = 'LuaScriptError';

  constructor(
    readonly label: string,
    readonly file: string,
    readonly line: number | undefined,
    readonly detail: string,
  ) {
    super(`${label} (${line === undefined ? file : `${file}:${line}`}): ${detail}`);
  }
}

/** A handle on a Lua value kept alive in the registry (a table the script keeps state in). */
export class LuaRef {
  constructor(readonly id: number) {}
}

/** One sandboxed Lua state running one script: the chunk must return a table of functions. */
export class LuaVm {
  private readonly L: LuaState;
  private readonly convert: LuaConverter;
  private readonly budget: number;
  private readonly moduleRef: number;
  private readonly functions = new Map<string, number | null>();
  private errorLine: number | undefined;
  private steps = 0;
  private closed = false;

  /** Compiles and runs `source`; throws LuaScriptError on a syntax or runtime error. */
  constructor(
    source: string,
    private readonly options: LuaVmOptions,
  ) {
    this.budget = options.instructionBudget ?? 5_000_000;
    this.L = lauxlib.luaL_newstate();
    this.convert = openSandbox(this.L, options.print ?? (() => undefined), options.fastTables ?? true);
    // Installed after the libraries are open (their loading would count) and kept for the state's life.
    lua.lua_sethook(this.L, (L) => this.countSteps(L), lua.LUA_MASKCOUNT, HOOK_EVERY);
    // The message handler stays at stack index 1 for the state's life; every call runs above it.
    lua.lua_pushjsfunction(this.L, (L) => this.recordErrorLine(L));
    const bytes = to_luastring(source);
    if (lauxlib.luaL_loadbufferx(this.L, bytes, bytes.length, CHUNK_BYTES, to_luastring('t')) !== lua.LUA_OK) {
      throw this.errorFromTop();
    }
    this.runProtected(0);
    if (lua.lua_type(this.L, -1) !== lua.LUA_TTABLE) {
      lua.lua_settop(this.L, HANDLER);
      throw new LuaScriptError(options.label, options.file, undefined, 'the script must end with `return { … }`, a table of its functions');
    }
    this.moduleRef = lauxlib.luaL_ref(this.L, lua.LUA_REGISTRYINDEX);
  }

  /** Whether JSON crosses into Lua through fengari's internals (the fast path). */
  get usesFastTables(): boolean {
    return this.convert.usesFastPath;
  }

  /** Tells whether the script's table has a function under `name`. */
  has(name: string): boolean {
    return this.functionRef(name) !== null;
  }

  /** Makes an empty table the script can keep state in, until released. */
  newTable(): LuaRef {
    lua.lua_createtable(this.L, 0, 4);
    return new LuaRef(lauxlib.luaL_ref(this.L, lua.LUA_REGISTRYINDEX));
  }

  /** Lets a table made by newTable go. */
  release(ref: LuaRef): void {
    if (!this.closed) lauxlib.luaL_unref(this.L, lua.LUA_REGISTRYINDEX, ref.id);
  }

  /**
   * Calls the script's function `name` with JSON-like arguments (or refs) and returns its first result as JavaScript.
   * Tables under the `asJson` keys of a returned table may come back as JsonText instead of objects.
   */
  call(name: string, args: readonly unknown[], asJson?: ReadonlySet<string>): unknown {
    const L = this.L;
    if (this.closed) throw new LuaScriptError(this.options.label, this.options.file, undefined, 'the script was unloaded');
    const ref = this.functionRef(name);
    if (ref === null) throw new LuaScriptError(this.options.label, this.options.file, undefined, `the script's table has no function "${name}"`);
    lauxlib.luaL_checkstack(L, args.length + 2, null);
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, ref);
    try {
      for (const arg of args) {
        if (arg instanceof LuaRef) lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, arg.id);
        else this.convert.push(L, arg);
      }
    } catch (error) {
      lua.lua_settop(L, HANDLER);
      throw error;
    }
    this.runProtected(args.length);
    try {
      return asJson === undefined ? this.convert.toJs(L, -1) : this.convert.topToJs(L, asJson);
    } catch (error) {
      throw new LuaScriptError(this.options.label, this.options.file, undefined, `${name} returned ${(error as Error).message}`);
    } finally {
      lua.lua_settop(L, HANDLER);
    }
  }

  /** Frees the Lua state's references; fengari relies on the JavaScript GC for the rest. */
  close(): void {
    this.closed = true;
    lua.lua_settop(this.L, 0);
  }

  // Each function is looked up by name once and kept in the registry (a string lookup per call costs a hash).
  private functionRef(name: string): number | null {
    let ref = this.functions.get(name);
    if (ref !== undefined) return ref;
    const L = this.L;
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, this.moduleRef);
    lua.lua_getfield(L, -1, encodeString(name));
    ref = lua.lua_type(L, -1) === lua.LUA_TFUNCTION ? lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX) : null;
    lua.lua_settop(L, HANDLER);
    this.functions.set(name, ref);
    return ref;
  }

  // Runs the function below its `nargs` arguments under the line-recording handler; leaves one result.
  private runProtected(nargs: number): void {
    this.steps = 0;
    this.errorLine = undefined;
    if (lua.lua_pcall(this.L, nargs, 1, HANDLER) !== lua.LUA_OK) throw this.errorFromTop();
  }

  private errorFromTop(): LuaScriptError {
    const L = this.L;
    const raw = lua.lua_type(L, -1) === lua.LUA_TSTRING ? (lua.lua_tojsstring(L, -1) ?? '') : `error object is a ${typeName(lua.lua_type(L, -1))} value`;
    lua.lua_settop(L, HANDLER);
    const prefix = POSITION_PREFIX.exec(raw);
    const line = prefix ? Number(prefix[1]) : this.errorLine;
    const detail = prefix ? raw.slice(prefix[0].length) : raw;
    return new LuaScriptError(this.options.label, this.options.file, line, detail);
  }

  // The message handler: remembers the innermost line of the script on the stack, for errors raised without one.
  private recordErrorLine(L: LuaState): number {
    const ar: LuaDebug = new lua.lua_Debug();
    for (let level = 0; lua.lua_getstack(L, level, ar); level++) {
      lua.lua_getinfo(L, SOURCE_AND_LINE, ar);
      if (ar.currentline > 0 && ar.source !== null && sameBytes(ar.source, CHUNK_BYTES)) {
        this.errorLine = ar.currentline;
        break;
      }
    }
    return 1;
  }

  private countSteps(L: LuaState): void {
    this.steps += HOOK_EVERY;
    if (this.steps > this.budget) {
      this.steps = 0;
      lauxlib.luaL_error(L, to_luastring(`ran more than ${this.budget} instructions in one call (an endless loop?)`));
    }
  }
}

const SOURCE_AND_LINE = to_luastring('Sl');

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function typeName(type: number): string {
  switch (type) {
    case lua.LUA_TNIL:
      return 'nil';
    case lua.LUA_TTABLE:
      return 'table';
    case lua.LUA_TFUNCTION:
      return 'function';
    case lua.LUA_TBOOLEAN:
      return 'boolean';
    case lua.LUA_TNUMBER:
      return 'number';
    default:
      return 'other';
  }
}
