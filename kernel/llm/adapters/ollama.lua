-- Ollama's native API, streamed as newline-delimited JSON: /api/chat (message.content, whole tool calls
-- with arguments as an object and no id), and the `response` field of /api/generate. An error can arrive
-- as a line {"error": "…"} after HTTP 200.
--
-- Contract (kernel/llm/adapter.ts): request(req, provider) returns the HTTP request; event(ev, state) is
-- called once per line with ev.data the parsed JSON, and returns a list of deltas.

local M = {}

local DEFAULT_BASE_URL = "http://127.0.0.1:11434"

local function url_of(base)
  base = (base or DEFAULT_BASE_URL):gsub("/+$", "")
  if base:sub(-9) == "/api/chat" then return base end
  return base .. "/api/chat"
end

local function wire_message(m)
  local out = { role = m.role, content = m.content }
  if m.tool_calls and #m.tool_calls > 0 then
    local calls = json.array()
    for i, c in ipairs(m.tool_calls) do
      calls[i] = { ["function"] = { name = c.name, arguments = c.args or {} } }
    end
    out.tool_calls = calls
  end
  return out
end

function M.request(req, provider)
  local messages = json.array()
  for i, m in ipairs(req.messages) do messages[i] = wire_message(m) end
  local body = { model = provider.model, messages = messages, stream = true }
  local options = {}
  if req.max_tokens then options.num_predict = req.max_tokens end
  if req.temperature then options.temperature = req.temperature end
  if next(options) ~= nil then body.options = options end
  if req.tools and #req.tools > 0 then
    local tools = json.array()
    for i, t in ipairs(req.tools) do
      tools[i] = { type = "function", ["function"] = { name = t.name, description = t.description, parameters = t.parameters } }
    end
    body.tools = tools
  end
  local headers = { ["content-type"] = "application/json", accept = "application/x-ndjson" }
  -- Ollama itself needs no key; a proxy in front of it (or ollama.com) may want one.
  if provider.api_key and provider.api_key ~= "" then headers.authorization = "Bearer " .. provider.api_key end
  return { url = url_of(provider.base_url), method = "POST", headers = headers, body = body, framing = "ndjson" }
end

-- Called for every line, so it sticks to plain field access (each call of type() costs in fengari).
function M.event(ev, state)
  local d = ev.data
  if not d then return nil end
  if d.error ~= nil then
    local message = type(d.error) == "table" and (d.error.message or json.encode(d.error)) or tostring(d.error)
    return { { type = "error", message = message, kind = "model_error", retryable = false } }
  end
  local out = {}
  local message = d.message
  if message then
    local content = message.content
    if content and content ~= "" then out[#out + 1] = { type = "text", text = content } end
    local calls = message.tool_calls
    if calls then
      for i = 1, #calls do
        -- Each call comes whole; without ids or indexes, each gets a number of its own.
        state.calls = (state.calls or 0) + 1
        local fn = calls[i]["function"] or {}
        local call = { type = "tool_call", index = state.calls, id = calls[i].id, name = fn.name, done = true }
        if type(fn.arguments) == "string" then call.args = fn.arguments else call.args_object = fn.arguments or {} end
        out[#out + 1] = call
      end
    end
  elseif d.response and d.response ~= "" then
    out[#out + 1] = { type = "text", text = d.response } -- /api/generate
  end
  if d.done then
    local reason = d.done_reason or "stop"
    out[#out + 1] = { type = "finish", reason = reason == "length" and "length" or "stop", raw = reason }
    out[#out + 1] = { type = "usage", input = d.prompt_eval_count, output = d.eval_count }
  end
  return out
end

function M.http_error(status, data, text)
  if type(data) == "table" and type(data.error) == "string" then return { message = data.error } end
  return nil
end

return M
