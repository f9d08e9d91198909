// Lua plugins: `main.lua` run in fengari (Lua 5.3 in JavaScript) inside the plugin host, bound to the SDK.
// The script registers what it offers on the global `homeagent` table (see README.md beside this file);
// the host turns that into an ordinary PluginDefinition, so main.ts routes calls to it like to a JS plugin.
//
// Every handler call (and main.lua itself, during activate) runs as a fresh coroutine. An SDK call that has to
// go over the wire (config.get/set/list, sleep) yields to the host, which awaits the request and resumes the
// coroutine with the answer: Lua code reads straight-line. Each call may run a bounded number of VM instructions,
// and the count hook yields every SLICE instructions so a long call never stops the host answering heartbeats.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EventDeliverParams, InitializeParams, StageName, StageSnapshot } from '../../protocol';
import type { PluginContext, PluginDefinition, StageHandler, ToolDefinition } from '../sdk';
import { allowHooks } from '../../protocol/runtime/internals/fengari';
import { decodeString, encodeString, JSON_NULL, LuaConverter } from '../../protocol/runtime/lua/convert';
import { fengari } from '../../protocol/runtime/lua/fengari';
import type { LuaDebug, LuaState } from '../../protocol/runtime/lua/fengari-api';
import { PRELUDE } from './prelude';
import { describeLuaValue, raiseLuaError } from '../../protocol/runtime/lua/errors';
import { createArrayMetatable, markArrayFunction, openPureLibraries, printFunction, setFunction } from '../../protocol/runtime/lua/sandbox-parts';

const { lua, lauxlib, to_luastring } = fengari;

/** Default most VM instructions one handler call may run. */
export const DEFAULT_INSTRUCTION_BUDGET = 5_000_000;
const HOOK_EVERY = 1000;
/** Instructions a handler runs before it lets the host's event loop turn (heartbeats, other calls). */
const SLICE = 100_000;
const MAIN_FILE = 'main.lua';
const MODULE_NAME = /^[A-Za-z0-9_-]+(?:[./][A-Za-z0-9_-]+)*$/;
const SOURCE_AND_LINE = to_luastring('Sl');

/** Marks a yield that is an SDK call to the host (unreachable from plugin code). */
const SDK_TOKEN: object = Object.freeze({ sdkCall: true });

/** The instructions run by one handler call so far. */
interface Budget {
  /** The handler's own coroutine (the only one the host preempts). */
  thread: LuaState;
  steps: number;
  slice: number;
  exhausted: boolean;
  preempted: boolean;
  where?: string;
}

/** What the host's context offers beyond the SDK: a handler for a subscription declared in the initialize answer. */
interface HandlerRegistry {
  addHandler(pattern: string, handler: (event: EventDeliverParams) => void): void;
}

/** Options for tests and tuning. */
export interface LuaPluginOptions {
  /** Most VM instructions one handler call may run (default 5 million, or HOMEAGENT_LUA_INSTRUCTIONS). */
  instructionBudget?: number;
}

/** Compiles the plugin's main.lua (a syntax error throws, naming file and line) and returns its definition. */
export function loadLuaPlugin(params: InitializeParams, options: LuaPluginOptions = {}): PluginDefinition {
  return new LuaPlugin(params, options).definition;
}

class LuaPlugin {
  readonly definition: PluginDefinition;
  private readonly L: LuaState;
  private readonly convert: LuaConverter;
  private readonly root: string;
  private readonly budget: number;
  private readonly mainRef: number;
  private readonly shutdownRefs: number[] = [];
  private ctx: PluginContext | undefined;
  private activated = false;
  private current: Budget | undefined;

  constructor(
    private readonly params: InitializeParams,
    options: LuaPluginOptions,
  ) {
    this.root = path.dirname(params.entry);
    const fromEnv = Number(process.env['HOMEAGENT_LUA_INSTRUCTIONS']);
    this.budget = options.instructionBudget ?? (Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_INSTRUCTION_BUDGET);
    const tools: Record<string, ToolDefinition<never>> = {};
    const stages: Partial<Record<StageName, StageHandler>> = {};
    const events: NonNullable<PluginDefinition['events']> = {};
    this.definition = {
      tools,
      stages,
      events,
      activate: async (ctx) => {
        this.ctx = ctx;
        await this.run(this.mainRef, [], MAIN_FILE);
        this.activated = true;
      },
      deactivate: async () => {
        for (const ref of this.shutdownRefs) await this.run(ref, [], 'on_shutdown handler');
      },
    };

    const L = (this.L = lauxlib.luaL_newstate());
    // Pure libraries only (require is the host's own); the prelude cuts os to its clock.
    openPureLibraries(L);
    const arrayMetatableRef = createArrayMetatable(L);
    this.convert = new LuaConverter(arrayMetatableRef);
    this.installApi(arrayMetatableRef, tools, stages, events);

    const prelude = to_luastring(PRELUDE);
    if (lauxlib.luaL_loadbufferx(L, prelude, prelude.length, to_luastring('=prelude'), to_luastring('t')) !== lua.LUA_OK) {
      throw new Error(`Lua prelude failed to compile: ${lua.lua_tojsstring(L, -1) ?? ''}`);
    }
    lua.lua_pushlightuserdata(L, SDK_TOKEN);
    lua.lua_pushjsfunction(L, (state) => this.loadModule(state));
    lua.lua_pushjsfunction(L, rearmHook);
    if (lua.lua_pcall(L, 3, 0, 0) !== lua.LUA_OK) throw new Error(`Lua prelude failed: ${lua.lua_tojsstring(L, -1) ?? ''}`);

    // Installed after the libraries and the prelude (their loading would count), for every coroutine made later.
    lua.lua_sethook(L, (state) => this.countSteps(state), lua.LUA_MASKCOUNT, HOOK_EVERY);

    const source = fs.readFileSync(params.entry);
    if (lauxlib.luaL_loadbufferx(L, source, source.length, to_luastring(`@${MAIN_FILE}`), to_luastring('t')) !== lua.LUA_OK) {
      const message = lua.lua_tojsstring(L, -1) ?? 'unknown error';
      lua.lua_pop(L, 1);
      throw this.error(`${message} (syntax error in ${params.entry})`);
    }
    this.mainRef = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
  }

  // The global `homeagent` table: registration functions, logging, publish, name, null and array.
  private installApi(
    arrayMetatableRef: number,
    tools: Record<string, ToolDefinition<never>>,
    stages: Partial<Record<StageName, StageHandler>>,
    events: NonNullable<PluginDefinition['events']>,
  ): void {
    const L = this.L;
    lua.lua_createtable(L, 0, 12);
    lua.lua_pushstring(L, encodeString(this.params.name));
    lua.lua_setfield(L, -2, to_luastring('name'));
    lua.lua_pushlightuserdata(L, JSON_NULL);
    lua.lua_setfield(L, -2, to_luastring('null'));

    setFunction(L, 'tool', (state) => {
      const name = checkString(state, 1, 'homeagent.tool', 'a tool name');
      if (lua.lua_type(state, 2) !== lua.LUA_TTABLE)
        raiseLuaError(state, `homeagent.tool("${name}"): the second argument must be a table { description = ..., parameters = {...} }`);
      const spec = this.convert.toJs(state, 2) as Record<string, unknown>;
      const ref = this.functionRef(state, 3, `homeagent.tool("${name}")`);
      if (typeof spec['description'] !== 'string') raiseLuaError(state, `homeagent.tool("${name}"): description must be a string`);
      const parameters = isObject(spec['parameters']) ? spec['parameters'] : { type: 'object', properties: {} };
      if (this.activated) raiseLuaError(state, `homeagent.tool("${name}"): tools are declared when main.lua runs, not later`);
      tools[name] = {
        description: spec['description'] as string,
        parameters,
        ...(typeof spec['timeout_ms'] === 'number' ? { timeoutMs: spec['timeout_ms'] } : {}),
        run: (args: unknown, _ctx: PluginContext, call) =>
          this.run(ref, [args, { name: call.name, session: call.session ?? null, call_id: call.callId ?? null }], `tool "${name}"`),
      };
      return 0;
    });

    setFunction(L, 'stage', (state) => {
      const stage = checkString(state, 1, 'homeagent.stage', 'a stage name') as StageName;
      const ref = this.functionRef(state, 2, `homeagent.stage("${stage}")`);
      if (this.activated) raiseLuaError(state, `homeagent.stage("${stage}"): stages are declared when main.lua runs, not later`);
      stages[stage] = async (snapshot: StageSnapshot) => ((await this.run(ref, [snapshot], `stage "${stage}"`)) ?? null) as never;
      return 0;
    });

    setFunction(L, 'on', (state) => {
      const pattern = checkString(state, 1, 'homeagent.on', 'an event name or pattern');
      const ref = this.functionRef(state, 2, `homeagent.on("${pattern}")`);
      const handler = (event: unknown): void => {
        this.run(ref, [event], `event handler "${pattern}"`).catch((error: unknown) => this.ctx?.log.error(String((error as Error).message ?? error)));
      };
      if (this.activated) {
        this.ctx?.events.on(pattern, handler).catch((error: unknown) => this.ctx?.log.error(`subscribing to ${pattern} failed: ${String(error)}`));
      } else {
        // Declared in the initialize answer (the subscription) and handled through the context.
        events[pattern] ??= () => undefined;
        (this.ctx as PluginContext & Partial<HandlerRegistry>).addHandler?.(pattern, handler);
      }
      return 0;
    });

    setFunction(L, 'on_shutdown', (state) => {
      this.shutdownRefs.push(this.functionRef(state, 1, 'homeagent.on_shutdown'));
      return 0;
    });

    setFunction(L, 'publish', (state) => {
      const name = checkString(state, 1, 'homeagent.publish', 'an event name');
      this.ctx?.events.publish(name, lua.lua_gettop(state) >= 2 ? this.convert.toJs(state, 2) : undefined);
      return 0;
    });

    setFunction(L, 'array', markArrayFunction(arrayMetatableRef));

    lua.lua_createtable(L, 0, 4);
    for (const level of ['debug', 'info', 'warn', 'error'] as const) {
      setFunction(L, level, (state) => {
        const fields = lua.lua_type(state, 2) === lua.LUA_TTABLE ? (this.convert.toJs(state, 2) as Record<string, unknown>) : undefined;
        this.ctx?.log[level](describeLuaValue(state, 1), isObject(fields) ? fields : undefined);
        return 0;
      });
    }
    lua.lua_setfield(L, -2, to_luastring('log'));
    lua.lua_setglobal(L, to_luastring('homeagent'));

    lua.lua_pushjsfunction(
      L,
      printFunction((line) => this.ctx?.log.info(line)),
    );
    lua.lua_setglobal(L, to_luastring('print'));
  }

  // require's loader: a module name like "lib.util" or "lib/util" → <plugin>/lib/util.lua, nothing outside.
  private loadModule(L: LuaState): number {
    const name = lua.lua_type(L, 1) === lua.LUA_TSTRING ? decodeString(lua.lua_tolstring(L, 1)) : '';
    const bare = name.endsWith('.lua') ? name.slice(0, -4) : name;
    if (!MODULE_NAME.test(bare)) {
      raiseLuaError(
        L,
        `require("${name}") refused: only .lua modules inside the plugin's folder can be required, by names like "util" or "lib.util" (no "..", no absolute paths)`,
      );
    }
    const relative = `${bare.split(/[./]/).join('/')}.lua`;
    const file = path.join(this.root, relative);
    let real: string;
    try {
      real = fs.realpathSync(file);
    } catch {
      return raiseLuaError(L, `require("${name}"): module not found (looked for ${relative} in the plugin's folder)`);
    }
    const root = fs.realpathSync(this.root);
    if (!real.startsWith(root + path.sep)) raiseLuaError(L, `require("${name}") refused: ${relative} leads outside the plugin's folder`);
    const source = fs.readFileSync(real);
    if (lauxlib.luaL_loadbufferx(L, source, source.length, to_luastring(`@${relative}`), to_luastring('t')) !== lua.LUA_OK) {
      return raiseLuaError(L, lua.lua_tojsstring(L, -1) ?? `require("${name}"): could not compile ${relative}`);
    }
    return 1;
  }

  // Runs a registered Lua function as a fresh coroutine; yields marked with the SDK token are SDK calls.
  private async run(fnRef: number, args: readonly unknown[], what: string): Promise<unknown> {
    const L = this.L;
    const co = lua.lua_newthread(L);
    const threadRef = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
    const budget: Budget = { thread: co, steps: 0, slice: 0, exhausted: false, preempted: false };
    try {
      lua.lua_rawgeti(co, lua.LUA_REGISTRYINDEX, fnRef);
      for (const arg of args) this.convert.push(co, arg);
      let nargs = args.length;
      for (;;) {
        this.current = budget;
        let status: number;
        try {
          status = lua.lua_resume(co, L, nargs);
        } finally {
          this.current = undefined;
        }
        if (status === lua.LUA_OK) {
          try {
            return lua.lua_gettop(co) > 0 ? this.convert.toJs(co, 1) : null;
          } catch (error) {
            throw this.error(`${what} returned ${(error as Error).message}`);
          }
        }
        if (status !== lua.LUA_YIELD) {
          if (budget.exhausted) {
            throw this.error(`${what} ran more than ${this.budget} instructions in one call (an endless loop?)${budget.where ? ` at ${budget.where}` : ''}`);
          }
          const message = lua.lua_type(co, -1) === lua.LUA_TSTRING ? (lua.lua_tojsstring(co, -1) ?? '') : `${what} raised a non-string error`;
          throw this.error(`${what} failed: ${message}`);
        }
        if (budget.preempted) {
          // The hook yielded to let the event loop turn: resume on the next round.
          budget.preempted = false;
          await new Promise((resolve) => setImmediate(resolve));
          nargs = 0;
          continue;
        }
        const top = lua.lua_gettop(co);
        if (top < 2 || lua.lua_type(co, 1) !== lua.LUA_TLIGHTUSERDATA || lua.lua_touserdata(co, 1) !== SDK_TOKEN) {
          throw this.error(`${what} yielded outside a coroutine of its own`);
        }
        const op = lua.lua_tojsstring(co, 2) ?? '';
        const opArgs: unknown[] = [];
        for (let i = 3; i <= top; i++) opArgs.push(this.convert.toJs(co, i));
        lua.lua_settop(co, 0);
        try {
          const value = await this.perform(op, opArgs);
          lua.lua_pushboolean(co, true);
          this.convert.push(co, value);
        } catch (error) {
          lua.lua_pushboolean(co, false);
          lua.lua_pushstring(co, encodeString(`${op} failed: ${(error as Error).message ?? String(error)}`));
        }
        nargs = 2;
      }
    } finally {
      lauxlib.luaL_unref(L, lua.LUA_REGISTRYINDEX, threadRef);
    }
  }

  // The SDK calls that go over the wire.
  private async perform(op: string, args: unknown[]): Promise<unknown> {
    const ctx = this.ctx;
    if (!ctx) throw new Error('the plugin is not connected yet');
    const scope = (i: number): string | undefined => (typeof args[i] === 'string' ? (args[i] as string) : undefined);
    switch (op) {
      case 'config.get':
        if (typeof args[0] !== 'string') throw new Error('expects a key (a string)');
        return ctx.config.get(args[0], scope(1));
      case 'config.set':
        if (typeof args[0] !== 'string') throw new Error('expects a key (a string)');
        return (await ctx.config.set(args[0], args[1], scope(2))).value;
      case 'config.list':
        return (await ctx.config.list(scope(0))).map((entry) => ({ key: entry.key, value: entry.value, is_set: entry.isSet }));
      case 'sleep': {
        const ms = Math.max(0, Math.min(Number(args[0]) || 0, 60_000));
        return new Promise((resolve) => setTimeout(() => resolve(null), ms));
      }
      default:
        throw new Error(`unknown SDK call ${op}`);
    }
  }

  private countSteps(L: LuaState): void {
    const budget = this.current;
    if (!budget) return;
    budget.steps += HOOK_EVERY;
    if (budget.steps <= this.budget && !budget.exhausted) {
      budget.slice += HOOK_EVERY;
      // A long handler yields now and then, so the host keeps answering heartbeats and other calls meanwhile.
      if (budget.slice >= SLICE && L === budget.thread && lua.lua_isyieldable(L)) {
        budget.slice = 0;
        budget.preempted = true;
        lua.lua_yield(L, 0);
      }
      return;
    }
    if (!budget.exhausted) {
      budget.exhausted = true;
      const ar: LuaDebug = new lua.lua_Debug();
      if (lua.lua_getstack(L, 0, ar)) {
        lua.lua_getinfo(L, SOURCE_AND_LINE, ar);
        if (ar.short_src && ar.currentline > 0) budget.where = `${decodeString(ar.short_src)}:${ar.currentline}`;
      }
    }
    // From now on every instruction fails, so a pcall around the loop cannot swallow the stop.
    lua.lua_sethook(L, (state) => this.countSteps(state), lua.LUA_MASKCOUNT, 1);
    lauxlib.luaL_error(L, to_luastring(`ran more than ${this.budget} instructions in one call`));
  }

  private functionRef(L: LuaState, index: number, what: string): number {
    if (lua.lua_type(L, index) !== lua.LUA_TFUNCTION) raiseLuaError(L, `${what}: expects a function as argument ${index}`);
    lua.lua_pushvalue(L, index);
    return lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
  }

  private error(message: string): Error {
    return new Error(`lua plugin "${this.params.name}": ${message}`);
  }
}

// Returns its arguments, turning the running thread's hooks back on (see allowHooks): an error caught by pcall
// inside a coroutine would otherwise leave the instruction cap off for the rest of that handler call.
function rearmHook(L: LuaState): number {
  allowHooks(L);
  return lua.lua_gettop(L);
}

function checkString(L: LuaState, index: number, fn: string, what: string): string {
  if (lua.lua_type(L, index) !== lua.LUA_TSTRING) raiseLuaError(L, `${fn}: argument ${index} must be ${what} (a string)`);
  return decodeString(lua.lua_tolstring(L, index));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
