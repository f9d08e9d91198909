// The one LuaConverter with and without the kernel's fast path: what one side builds, the other reads the same,
// on the main state and on a coroutine of it (the plugin host passes a coroutine per call).
import assert from 'node:assert/strict';
import test from 'node:test';
import { JSON_NULL, LuaConverter, Reusable } from '../../../protocol/runtime/lua/convert';
import { fengari } from '../../../protocol/runtime/lua/fengari';
import { FastTableBuilder } from '../../../kernel/llm/lua/fast-tables';

const { lua, lauxlib } = fengari;

const SAMPLES: unknown[] = [
  'kettle',
  'naïve — ünïcode',
  42,
  -1.5,
  2 ** 40,
  true,
  [],
  {},
  [1, 'two', { three: 3 }, [4]],
  { model: 'gpt', messages: [{ role: 'user', content: 'hi' }], tools: [], stream: true, temperature: 0.2 },
  { nested: { deeper: { deepest: ['x', { y: false }] } } },
  { gap: [1, null, 3], skipped: null },
];

function setUp(): { L: ReturnType<typeof lauxlib.luaL_newstate>; fast: LuaConverter; plain: LuaConverter } {
  const L = lauxlib.luaL_newstate();
  lua.lua_createtable(L, 0, 0);
  const ref = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
  const builder = FastTableBuilder.create(L, ref);
  assert.ok(builder !== undefined, "fengari's internals are missing: see test/protocol/runtime/internals/fengari.test.ts");
  return { L, fast: new LuaConverter(ref, builder), plain: new LuaConverter(ref) };
}

for (const where of ['the main state', 'a coroutine'] as const) {
  test(`the fast path and the public API agree both ways, on ${where}`, () => {
    const { L: main, fast, plain } = setUp();
    const L = where === 'a coroutine' ? lua.lua_newthread(main) : main;
    assert.equal(fast.usesFastPath, true);
    assert.equal(plain.usesFastPath, false);
    for (const sample of SAMPLES) {
      const expected = plainRoundTrip(sample);
      for (const [push, read] of [
        [fast, plain],
        [plain, fast],
        [fast, fast],
      ] as const) {
        const top = lua.lua_gettop(L);
        push.push(L, sample);
        assert.equal(lua.lua_gettop(L), top + 1, 'one value pushed');
        assert.deepEqual(
          read.toJs(L, -1),
          expected,
          `${JSON.stringify(sample)} pushed ${push === fast ? 'fast' : 'plain'}, read ${read === fast ? 'fast' : 'plain'}`,
        );
        lua.lua_settop(L, top);
      }
    }
  });
}

test('json null and Reusable values cross the same way with or without the fast path', () => {
  const { L, fast, plain } = setUp();
  for (const convert of [fast, plain]) {
    convert.push(L, { a: JSON_NULL, tools: new Reusable([{ name: 't' }]) });
    assert.deepEqual(convert.toJs(L, -1), { a: null, tools: [{ name: 't' }] });
    lua.lua_settop(L, 0);
    convert.push(L, new Reusable({ deep: { inner: new Reusable([1]) } }));
    assert.deepEqual(plain.toJs(L, -1), { deep: { inner: [1] } });
    lua.lua_settop(L, 0);
  }
});

// The JSON value the converter's rules make of a sample: null members dropped, null array items kept as null.
function plainRoundTrip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === null ? null : plainRoundTrip(v)));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, plainRoundTrip(v)]),
    );
  }
  return value;
}
