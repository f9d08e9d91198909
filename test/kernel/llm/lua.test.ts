// Lua adapters: an owner's own adapter, errors that name the adapter and the line, the sandbox.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { LuaScriptError } from '../../../kernel/llm';
import { LuaVm } from '../../../kernel/llm/lua/vm';
import { ask, expectLlmError, setupLlm } from './helpers';

// Speaks the OpenAI wire, but shouts: enough to tell the owner's adapter from the shipped one.
const SHOUT = `
local M = {}
function M.request(req, provider)
  local messages = json.array()
  for i, m in ipairs(req.messages) do messages[i] = { role = m.role, content = m.content } end
  return { url = provider.base_url .. "/chat/completions", headers = { ["x-adapter"] = "shout" },
           body = { model = provider.model, messages = messages, stream = true }, framing = "sse" }
end
function M.event(ev, state)
  local choice = ev.data.choices and ev.data.choices[1]
  if not choice then return nil end
  local out = {}
  if choice.delta.content and choice.delta.content ~= "" then out[#out + 1] = { type = "text", text = string.upper(choice.delta.content) } end
  if choice.finish_reason then out[#out + 1] = { type = "finish", reason = choice.finish_reason } end
  return out
end
return M
`;

test('an adapter dropped into <data>/adapters is used by name', async (t) => {
  const { fake, manager, addProvider, dataDir } = await setupLlm(t);
  fs.mkdirSync(path.join(dataDir, 'adapters'));
  fs.writeFileSync(path.join(dataDir, 'adapters', 'shout.lua'), SHOUT);
  addProvider('loud', 'openai', { adapter: 'shout' });
  fake.enqueue({ text: 'hello there' });
  const shown: string[] = [];
  const result = await manager.complete(ask(), { onText: (d) => shown.push(d) });
  assert.equal(result.text, 'HELLO THERE');
  assert.deepEqual(shown, ['HELLO', ' THERE']);
  assert.equal(fake.requests[0]!.headers['x-adapter'], 'shout');
  assert.equal(manager.adapterDir, path.join(dataDir, 'adapters'));
});

test('an adapter given by path works, and an edited adapter file is reloaded', async (t) => {
  const { fake, manager, addProvider, dataDir } = await setupLlm(t);
  const file = path.join(dataDir, 'elsewhere', 'custom.lua');
  fs.mkdirSync(path.dirname(file));
  fs.writeFileSync(file, SHOUT);
  addProvider('p', 'openai', { adapter: file });
  fake.enqueue({ text: 'abc' }, { text: 'abc' });
  assert.equal((await manager.complete(ask())).text, 'ABC');
  fs.writeFileSync(file, SHOUT.replace('string.upper(choice.delta.content)', '"<" .. choice.delta.content .. ">"'));
  assert.equal((await manager.complete(ask())).text, '<abc>');
});

test('a runtime error in an adapter names the adapter, its file and the line, and is not retried', async (t) => {
  const { fake, manager, addProvider, dataDir } = await setupLlm(t);
  const source = [
    'local M = {}',
    'function M.request(req, provider)',
    '  return { url = provider.base_url .. "/chat/completions", body = { model = provider.model }, framing = "sse" }',
    'end',
    'function M.event(ev, state)',
    '  local missing = nil',
    '  return { { type = "text", text = missing.field } }',
    'end',
    'return M',
  ].join('\n');
  fs.mkdirSync(path.join(dataDir, 'adapters'));
  const file = path.join(dataDir, 'adapters', 'broken.lua');
  fs.writeFileSync(file, source);
  addProvider('p', 'openai', { adapter: 'broken' });
  fake.enqueue({ text: 'hi' }, { text: 'hi' });
  const error = await expectLlmError(() => manager.complete(ask()));
  assert.equal(error.kind, 'adapter');
  assert.ok(error.message.includes(`adapter "broken" (${file}:7): attempt to index a nil value (local 'missing')`), error.message);
  assert.ok(error.cause instanceof LuaScriptError && error.cause.line === 7);
  assert.equal(fake.requests.length, 1);
});

test('a syntax error in an adapter names the adapter, its file and the line', async (t) => {
  const { manager, addProvider, dataDir } = await setupLlm(t);
  fs.mkdirSync(path.join(dataDir, 'adapters'));
  const file = path.join(dataDir, 'adapters', 'typo.lua');
  fs.writeFileSync(file, 'local M = {}\nfunction M.request(req, provider)\n  return { url = = 1 }\nend\nreturn M\n');
  addProvider('p', 'openai', { adapter: 'typo' });
  const error = await expectLlmError(() => manager.complete(ask()));
  assert.equal(error.kind, 'adapter');
  assert.ok(error.message.includes(`adapter "typo" (${file}:3): unexpected symbol near '='`), error.message);
});

test('an adapter without event(), or a setting naming no adapter, is refused with what to do', async (t) => {
  const { manager, addProvider, dataDir } = await setupLlm(t);
  fs.mkdirSync(path.join(dataDir, 'adapters'));
  fs.writeFileSync(path.join(dataDir, 'adapters', 'half.lua'), 'return { request = function() end }');
  addProvider('p', 'openai', { adapter: 'half' });
  const half = await expectLlmError(() => manager.complete(ask()));
  assert.match(half.message, /adapter "half" \(.*half\.lua\): the returned table has no "event" function/);
  addProvider('p', 'openai', { adapter: 'nosuch' });
  const missing = await expectLlmError(() => manager.complete(ask()));
  assert.equal(missing.kind, 'config');
  assert.match(missing.message, /llm\.provider\.p\.adapter is "nosuch", but there is no such adapter; use openai, anthropic, ollama, or put nosuch\.lua in /);
});

test('an adapter returning a bad request or delta is named in the error', async (t) => {
  const { fake, manager, addProvider, dataDir } = await setupLlm(t);
  fs.mkdirSync(path.join(dataDir, 'adapters'));
  fs.writeFileSync(
    path.join(dataDir, 'adapters', 'badurl.lua'),
    'return { request = function() return { url = "file:///etc/passwd" } end, event = function() end }',
  );
  fs.writeFileSync(
    path.join(dataDir, 'adapters', 'baddelta.lua'),
    'return { request = function(req, p) return { url = p.base_url .. "/chat/completions", body = {} } end, event = function() return { { type = "smile" } } end }',
  );
  addProvider('a', 'openai', { adapter: 'badurl' });
  addProvider('b', 'openai', { adapter: 'baddelta' });
  assert.match(
    (await expectLlmError(() => manager.complete(ask(), { provider: 'a' }))).message,
    /adapter "badurl" .*url "file:\/\/\/etc\/passwd"; it must be an http:\/\/ or https:\/\/ URL/,
  );
  fake.enqueue({ text: 'x' });
  assert.match((await expectLlmError(() => manager.complete(ask(), { provider: 'b' }))).message, /adapter "baddelta" .*delta of unknown type "smile"/);
});

test('the sandbox has no io, os.execute, require, dofile, loadfile, load or debug', () => {
  const vm = new LuaVm(
    `return { check = function()
       return { io = type(io), execute = type(os.execute), remove = type(os.remove), require = type(require), dofile = type(dofile),
                loadfile = type(loadfile), load = type(load), debug = type(debug), package = type(package), time = type(os.time),
                string = type(string.format), json = type(json.encode) }
     end }`,
    { label: 'adapter "probe"', file: 'probe.lua' },
  );
  assert.deepEqual(vm.call('check', []), {
    io: 'nil',
    execute: 'nil',
    remove: 'nil',
    require: 'nil',
    dofile: 'nil',
    loadfile: 'nil',
    load: 'nil',
    debug: 'nil',
    package: 'nil',
    time: 'function',
    string: 'function',
    json: 'function',
  });
});

test('an endless loop is stopped by the instruction budget with the adapter and line named', () => {
  const vm = new LuaVm('local M = {}\nfunction M.spin()\n  while true do end\nend\nreturn M', {
    label: 'adapter "spin"',
    file: 'spin.lua',
    instructionBudget: 100_000,
  });
  assert.throws(
    () => vm.call('spin', []),
    (error: unknown) => error instanceof LuaScriptError && /^adapter "spin" \(spin\.lua:3\): ran more than 100000 instructions/.test(error.message),
  );
  assert.throws(() => vm.call('spin', []), LuaScriptError, 'the state stays usable after the error');
});

for (const fastTables of [true, false]) {
  test(`values cross between JavaScript and Lua intact (${fastTables ? "fengari's internals" : 'public Lua API only'}): arrays stay arrays, objects objects, json.null is null`, () => {
    const vm = new LuaVm(
      `local M = {}
       function M.echo(v) return v end
       function M.shapes() return { empty_array = json.array(), empty_object = {}, seq = { 1, 2, 3 }, holes = { [1] = "a", [3] = "c" },
         null = json.null, text = json.encode({ a = json.array({ 1 }), b = json.null }), decoded = json.decode('{"x":[1,{"y":null}]}') } end
       function M.error_position() error("plain message", 0) end
       return M`,
      { label: 'adapter "shapes"', file: 'shapes.lua', fastTables },
    );
    assert.equal(vm.usesFastTables, fastTables);
    const value = {
      s: 'héllo ✓ 🎉',
      n: 3,
      f: 1.5,
      big: 2 ** 40,
      neg: -7,
      t: true,
      arr: [1, 'two', { three: 3 }],
      empty: [],
      obj: {},
      nested: { deep: { deeper: ['x'] } },
    };
    assert.deepEqual(vm.call('echo', [value]), value);
    assert.deepEqual(vm.call('echo', [{ gone: null, kept: 0 }]), { kept: 0 }, 'null values leave no key');
    assert.deepEqual(vm.call('shapes', []), {
      empty_array: [],
      empty_object: {},
      seq: [1, 2, 3],
      holes: { 1: 'a', 3: 'c' },
      null: null,
      text: '{"a":[1],"b":null}',
      decoded: { x: [1, {}] },
    });
    assert.throws(
      () => vm.call('error_position', []),
      (error: unknown) => error instanceof LuaScriptError && error.line === 5 && error.detail === 'plain message',
    );
  });
}
