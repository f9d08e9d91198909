// The request body read straight from Lua into JSON text, and tool tables kept in the Lua state between
// requests: both must give exactly what reading the value into JavaScript and JSON.stringify gave.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { LuaAdapter } from '../../../kernel/llm/adapter';
import { BUILTIN_ADAPTER_DIR } from '../../../kernel/llm/adapter-store';
import type { LlmRequest } from '../../../kernel/llm/types';
import { JsonText } from '../../../kernel/llm/lua/table-json';
import { LuaVm } from '../../../kernel/llm/lua/vm';

const SHAPES = `
local M = {}
local function bad_utf8() return string.char(255) .. "x" end
M.cases = {
  function() return { a = 1, b = "two", c = true, d = 1.5, e = json.null } end,
  function() return json.array() end,
  function() return {} end,
  function() return { 1, 2, 3 } end,
  function() return { [1] = "a", [3] = "c" } end,
  function() return json.array({ [1] = "a", [3] = "c" }) end,
  function() return { [2] = "b", [1] = "a" } end,
  function() return { ["10"] = "ten", z = 1, ["2"] = "two", a = 2, ["01"] = "zero-one" } end,
  function() return { [1] = "number one", ["1"] = "string one", x = 0 } end,
  function() return { [1.5] = "float key", ["1.5"] = "string", [-1] = "negative", [0] = "zero" } end,
  function() return { f = function() end, kept = 1, list = { 1, print, 3 } } end,
  function() return { nan = 0/0, inf = 1/0, ninf = -1/0, negzero = -0.0, big = 2^40, small = 1e-7 } end,
  function() return { text = "héllo ✓ 🎉 \\"quoted\\" back\\\\slash \\n line \\t tab \\0 nul \\1 ctl" } end,
  function() return { [bad_utf8()] = 1, [string.char(254) .. "x"] = 2 } end,
  function() return { bad = bad_utf8(), ["é"] = "key" } end,
  function() return { nested = { deeper = { json.array({ { x = json.null }, json.array() }) } } } end,
  function() return { mixed = { 1, 2, x = "y" }, holes = { [1] = 1, [2] = nil, [3] = 3 } } end,
  function() return { [true] = "boolean key", ok = 1 } end,
  function() return "plain string" end,
  function() return 42 end,
}
function M.case(i) return { body = M.cases[i](), url = "http://x" } end
function M.count() return #M.cases end
return M
`;

for (const fastTables of [true, false]) {
  test(`a body read as JSON text is exactly JSON.stringify of the body read as JavaScript (${fastTables ? "fengari's internals" : 'public API'})`, () => {
    const vm = new LuaVm(SHAPES, { label: 'adapter "shapes"', file: 'shapes.lua', fastTables });
    const count = vm.call('count', []) as number;
    assert.ok(count >= 20);
    for (let i = 1; i <= count; i++) {
      const plain = vm.call('case', [i]) as { body: unknown };
      const direct = vm.call('case', [i], new Set(['body'])) as { body: unknown; url: unknown };
      const text = direct.body instanceof JsonText ? direct.body.text : JSON.stringify(direct.body);
      assert.equal(text, JSON.stringify(plain.body), `case ${i}`);
      assert.equal(direct.url, 'http://x', `case ${i}: the other fields are read as values`);
      if (fastTables && typeof plain.body === 'object' && plain.body !== null) assert.ok(direct.body instanceof JsonText, `case ${i} came as text`);
    }
  });
}

test('a table nested too deep fails the same way whether read as JSON text or as values', () => {
  const vm = new LuaVm(
    'local M = {}\nfunction M.deep() local t = {} local top = t for i = 1, 150 do t.x = {} t = t.x end return { body = top } end\nfunction M.loop() local t = {} t.self = t return { body = t } end\nreturn M',
    {
      label: 'adapter "deep"',
      file: 'deep.lua',
    },
  );
  for (const name of ['deep', 'loop']) {
    assert.throws(() => vm.call(name, []), /nested deeper than 100 levels/);
    assert.throws(() => vm.call(name, [], new Set(['body'])), /nested deeper than 100 levels/);
  }
});

// An adapter that writes into the tools it was given, in a different way on each request; the body shows what it saw.
const MEDDLER = `
local M = {}
local n = 0
local kept
function M.request(req, provider)
  n = n + 1
  local tools = req.tools
  local before = json.encode(tools)
  local t1 = tools[1]
  if n == 1 then t1.description = t1.description .. " (changed)"
  elseif n == 2 then t1.parameters.properties.extra = { type = "string" }
  elseif n == 3 then t1.parameters.required = nil
  elseif n == 4 then setmetatable(t1.parameters, { __index = {} })
  elseif n == 5 then t1.parameters.properties.a.type = nil; t1.parameters.properties.a.kind = "int"
  elseif n == 6 then kept = tools[2]
  elseif n == 8 then tools[3] = { name = "added" }
  end
  return { url = "http://x", headers = { seen = before }, body = { tools = tools, n = n } }
end
function M.event(ev, state) return nil end
function M.poke() if kept then kept.description = "poked between requests" end return 1 end
return M
`;

function toolsRequest(): LlmRequest {
  return {
    messages: [{ role: 'user', content: 'hi' }],
    tools: [
      { name: 'first', description: 'the first tool', parameters: { type: 'object', required: ['a'], properties: { a: { type: 'integer' } } } },
      { name: 'second', description: 'the second tool', parameters: { type: 'object', properties: {} } },
    ],
  };
}

test('tools kept in the Lua state between requests: whatever the adapter changes in them, the next request gets them as new', () => {
  const adapter = new LuaAdapter('meddler', 'meddler.lua', MEDDLER);
  const fresh = new LuaAdapter('meddler', 'meddler.lua', MEDDLER.replace('local n = 0', 'local n = 0 -- fresh state each time'));
  const pristine = JSON.stringify(JSON.parse(fresh.buildRequest(toolsRequest(), { name: 'p' }).headers['seen'] as string));
  for (let n = 1; n <= 9; n++) {
    if (n === 7) (adapter as unknown as { vm: LuaVm }).vm.call('poke', []);
    const wire = adapter.buildRequest(toolsRequest(), { name: 'p' });
    assert.equal(wire.headers['seen'], pristine, `request ${n} saw the tools as given, not as an earlier request left them`);
    // What the adapter changed this time is in this body, exactly as if nothing were kept.
    const reference = new LuaAdapter('meddler', 'meddler.lua', MEDDLER.replace('local n = 0', `local n = ${n - 1}`));
    assert.equal(wire.body, reference.buildRequest(toolsRequest(), { name: 'p' }).body, `request ${n}: the body`);
  }
});

test('the shipped adapter sends the same body whether its tools are kept or built anew, request after request', () => {
  const adapter = new LuaAdapter('openai', 'openai.lua', readShipped('openai'));
  const publicApi = new LuaAdapter('openai', 'openai.lua', readShipped('openai'), { fastTables: false });
  const request = toolsRequest();
  const first = adapter.buildRequest(request, { name: 'p', model: 'm', base_url: 'http://h/v1' });
  for (let i = 0; i < 3; i++) {
    const again = adapter.buildRequest({ ...request, tools: request.tools!.map((t) => ({ ...t })) }, { name: 'p', model: 'm', base_url: 'http://h/v1' });
    assert.deepEqual(again, first);
  }
  assert.deepEqual(publicApi.buildRequest(request, { name: 'p', model: 'm', base_url: 'http://h/v1' }), first);
  const changed = adapter.buildRequest(
    { ...request, tools: [{ ...request.tools![0]!, description: 'other words' }] },
    { name: 'p', model: 'm', base_url: 'http://h/v1' },
  );
  assert.match(changed.body, /other words/);
  assert.doesNotMatch(changed.body, /the second tool/);
});

function readShipped(name: string): string {
  return fs.readFileSync(path.join(BUILTIN_ADAPTER_DIR, `${name}.lua`), 'utf8');
}
