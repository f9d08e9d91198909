-- OpenAI chat completions, streamed (SSE): OpenAI itself and the servers that speak its dialect
-- (vLLM, llama.cpp server, LM Studio, LiteLLM, OpenRouter …).
--
-- Contract (kernel/llm/adapter.ts): request(req, provider) returns the HTTP request; event(ev, state) is
-- called once per SSE event with ev.data the parsed JSON, and returns a list of deltas. `[DONE]` is
-- handled by the kernel. http_error(status, data, text) reads an error body.

local M = {}

local DEFAULT_BASE_URL = "https://api.openai.com/v1"

local FINISH = {
  stop = "stop",
  length = "length",
  tool_calls = "tool_calls",
  function_call = "tool_calls",
  content_filter = "content_filter",
}

-- Error codes no retry can fix, whatever the HTTP status (insufficient_quota comes with a 429).
local PERMANENT = {
  insufficient_quota = true,
  invalid_api_key = true,
  invalid_request_error = true,
  unsupported_parameter = true,
  unsupported_value = true,
  model_not_found = true,
  context_length_exceeded = true,
  billing_hard_limit_reached = true,
  account_deactivated = true,
}

local function url_of(base)
  base = (base or DEFAULT_BASE_URL):gsub("/+$", "")
  if base:sub(-17) == "/chat/completions" then return base end
  return base .. "/chat/completions"
end

-- request() runs before every model call: its loops count up rather than call an iterator per item,
-- and the URL is worked out once per base URL (each of those calls costs in fengari).
local urls = {}
local function cached_url_of(base)
  local key = base or ""
  local url = urls[key]
  if url == nil then
    url = url_of(base)
    urls[key] = url
  end
  return url
end

local function wire_message(m)
  if m.role == "tool" then
    return { role = "tool", tool_call_id = m.tool_call_id, content = m.content }
  end
  local out = { role = m.role, content = m.content }
  if m.tool_calls and #m.tool_calls > 0 then
    local calls = json.array()
    for i = 1, #m.tool_calls do
      local c = m.tool_calls[i]
      local arguments = c.args_text
      if arguments == nil or arguments == "" then arguments = json.encode(c.args or {}) end
      calls[i] = { id = c.id, type = "function", ["function"] = { name = c.name, arguments = arguments } }
    end
    out.tool_calls = calls
    if out.content == "" then out.content = json.null end
  end
  return out
end

function M.request(req, provider)
  local messages = json.array()
  local list = req.messages
  for i = 1, #list do messages[i] = wire_message(list[i]) end
  local body = {
    model = provider.model,
    messages = messages,
    stream = true,
    stream_options = { include_usage = true },
  }
  if req.max_tokens then
    -- OpenAI's own API wants max_completion_tokens (reasoning models refuse max_tokens);
    -- the compatible servers know max_tokens.
    if (provider.base_url or DEFAULT_BASE_URL):find("api.openai.com", 1, true) then
      body.max_completion_tokens = req.max_tokens
    else
      body.max_tokens = req.max_tokens
    end
  end
  if req.temperature then body.temperature = req.temperature end
  if req.tools and #req.tools > 0 then
    local tools, list = json.array(), req.tools
    for i = 1, #list do
      local t = list[i]
      tools[i] = { type = "function", ["function"] = { name = t.name, description = t.description, parameters = t.parameters } }
    end
    body.tools = tools
  end
  local headers = { ["content-type"] = "application/json", accept = "text/event-stream" }
  if provider.api_key and provider.api_key ~= "" then headers.authorization = "Bearer " .. provider.api_key end
  return { url = cached_url_of(provider.base_url), method = "POST", headers = headers, body = body, framing = "sse" }
end

local function error_delta(e)
  if type(e) ~= "table" then return { type = "error", message = tostring(e) } end
  local code = e.code or e.type
  if code ~= nil then code = tostring(code) end
  return { type = "error", message = e.message or "the provider reported an error", kind = code, retryable = code == "server_error" or code == "rate_limit_exceeded" }
end

-- Called for every chunk, so it sticks to plain field access (each call of type() costs in fengari).
function M.event(ev, state)
  local d = ev.data
  if not d then return nil end
  if d.error ~= nil then return { error_delta(d.error) } end
  local out = {}
  local choices = d.choices
  local choice = choices and choices[1]
  if choice then
    local delta = choice.delta or choice.message
    if delta then
      local content = delta.content
      if content and content ~= "" then out[#out + 1] = { type = "text", text = content } end
      local calls = delta.tool_calls
      if calls then
        for i = 1, #calls do
          local c = calls[i]
          local fn = c["function"] or {}
          local call = { type = "tool_call", index = c.index, id = c.id, name = fn.name }
          if type(fn.arguments) == "table" then call.args_object = fn.arguments else call.args = fn.arguments end
          out[#out + 1] = call
        end
      end
    end
    local reason = choice.finish_reason
    if reason then out[#out + 1] = { type = "finish", reason = FINISH[reason] or reason, raw = reason } end
  end
  -- The usage chunk comes last, with empty (or null) choices.
  local usage = d.usage
  if usage then out[#out + 1] = { type = "usage", input = usage.prompt_tokens, output = usage.completion_tokens } end
  return out
end

function M.http_error(status, data, text)
  if type(data) ~= "table" then return nil end
  local e = data.error
  if type(e) == "table" then
    local code = e.code or e.type
    if code ~= nil then code = tostring(code) end
    local info = { message = e.message, kind = code }
    if PERMANENT[code] or PERMANENT[e.type] then info.retryable = false end
    return info
  end
  if type(e) == "string" then return { message = e } end
  -- vLLM: {"object":"error","message":…,"type":…,"code":400}
  if type(data.message) == "string" then return { message = data.message, kind = data.type } end
  return nil
end

return M
