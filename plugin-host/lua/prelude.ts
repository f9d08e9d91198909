// The Lua side of the sandbox, run once per plugin state before main.lua. It receives three values no plugin
// code can reach: TOKEN (a light userdata marking a yield that asks the host for an SDK call), LOADMODULE
// (the host's checked loader for `require`) and REARM (turns the instruction hook back on after a pcall; see plugin.ts).
export const PRELUDE = `
local TOKEN, LOADMODULE, REARM = ...

-- fengari 0.1.5 leaves hooks off in a coroutine after pcall/xpcall catches an error there (lua_pcallk does not
-- save 'allowhook'), which would switch off the instruction cap: both re-arm the hook on their way out.
local raw_pcall, raw_xpcall = pcall, xpcall
pcall = function(...) return REARM(raw_pcall(...)) end
xpcall = function(...) return REARM(raw_xpcall(...)) end
local homeagent = homeagent

-- os keeps only its clock functions; no file loaders; load only of text chunks.
local clock = os
os = { time = clock.time, clock = clock.clock, date = clock.date, difftime = clock.difftime }
dofile, loadfile, loadstring, module = nil, nil, nil, nil
string.dump = nil
local raw_load = load
load = function(chunk, name, mode, ...)
  if select('#', ...) > 0 then return raw_load(chunk, name, 't', ...) end
  return raw_load(chunk, name, 't')
end

-- require: only .lua modules inside the plugin's folder, each run once.
local loaded = {}
require = function(name)
  if type(name) ~= 'string' then error('require expects a module name (a string)', 2) end
  local cached = loaded[name]
  if cached ~= nil then return cached end
  local ok, chunk = pcall(LOADMODULE, name)
  if not ok then error(chunk, 2) end
  local value = chunk(name)
  if value == nil then value = true end
  loaded[name] = value
  return value
end

-- An SDK call that goes over the wire: the handler's coroutine yields to the host and is resumed with the answer.
local co_yield, co_resume, co_status, co_create = coroutine.yield, coroutine.resume, coroutine.status, coroutine.create
local function sdk(op, ...)
  local ok, value = co_yield(TOKEN, op, ...)
  if not ok then error(value, 3) end
  return value
end
-- A plugin's own coroutines pass the host's yields through, so SDK calls work inside them too.
local function pass(co, ok, first, ...)
  if ok and first == TOKEN and co_status(co) == 'suspended' then
    return pass(co, co_resume(co, co_yield(TOKEN, ...)))
  end
  return ok, first, ...
end
coroutine.resume = function(co, ...) return pass(co, co_resume(co, ...)) end
coroutine.wrap = function(f)
  local co = co_create(f)
  return function(...)
    local results = table.pack(coroutine.resume(co, ...))
    if not results[1] then error(results[2], 2) end
    return table.unpack(results, 2, results.n)
  end
end

homeagent.config = {
  get = function(key, scope) return sdk('config.get', key, scope) end,
  set = function(key, value, scope) return sdk('config.set', key, value, scope) end,
  list = function(scope) return sdk('config.list', scope) end,
}
homeagent.sleep = function(ms) return sdk('sleep', ms) end
`;
