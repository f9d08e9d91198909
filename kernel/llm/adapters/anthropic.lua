-- Anthropic Messages API, streamed (SSE with named events): message_start, content_block_start/delta/stop,
-- message_delta, message_stop, ping, and error events inside a 200 stream.
--
-- Contract (kernel/llm/adapter.ts): request(req, provider) returns the HTTP request; event(ev, state) is
-- called once per SSE event with ev.data the parsed JSON, and returns a list of deltas.

local M = {}

local DEFAULT_BASE_URL = "https://api.anthropic.com"
local DEFAULT_MAX_TOKENS = 4096
local API_VERSION = "2023-06-01"

local FINISH = {
  end_turn = "stop",
  stop_sequence = "stop",
  max_tokens = "length",
  model_context_window_exceeded = "length",
  tool_use = "tool_calls",
  refusal = "content_filter",
  pause_turn = "stop",
}

-- Error types worth another try (in a stream or as an HTTP body).
local TRANSIENT = { overloaded_error = true, api_error = true, rate_limit_error = true, timeout_error = true }

local function url_of(base)
  base = (base or DEFAULT_BASE_URL):gsub("/+$", "")
  if base:sub(-12) == "/v1/messages" then return base end
  if base:sub(-3) == "/v1" then return base .. "/messages" end
  return base .. "/v1/messages"
end

-- Appends content blocks as a message of `role`, merged into the previous one when it has the same role
-- (tool results must all sit in the one user message that follows the assistant's tool_use blocks).
local function append(messages, role, blocks)
  local last = messages[#messages]
  if last and last.role == role then
    for _, b in ipairs(blocks) do last.content[#last.content + 1] = b end
  else
    messages[#messages + 1] = { role = role, content = blocks }
  end
end

local function text_blocks(text)
  local blocks = json.array()
  if text ~= nil and text ~= "" then blocks[1] = { type = "text", text = text } end
  return blocks
end

function M.request(req, provider)
  local system = {}
  local messages = json.array()
  for _, m in ipairs(req.messages) do
    if m.role == "system" and #messages == 0 then
      system[#system + 1] = m.content
    elseif m.role == "system" then
      -- No system role inside the conversation (an [interrupt] note, say): it reaches the model as user text.
      if m.content ~= "" then append(messages, "user", text_blocks(m.content)) end
    elseif m.role == "tool" then
      append(messages, "user", json.array({ { type = "tool_result", tool_use_id = m.tool_call_id, content = m.content } }))
    elseif m.role == "assistant" then
      local blocks = text_blocks(m.content)
      for _, c in ipairs(m.tool_calls or {}) do
        blocks[#blocks + 1] = { type = "tool_use", id = c.id, name = c.name, input = c.args or {} }
      end
      if #blocks > 0 then append(messages, "assistant", blocks) end
    elseif m.content ~= "" then
      append(messages, "user", text_blocks(m.content))
    end
  end
  local body = {
    model = provider.model,
    max_tokens = req.max_tokens or DEFAULT_MAX_TOKENS,
    messages = messages,
    stream = true,
  }
  if #system > 0 then body.system = table.concat(system, "\n\n") end
  if req.temperature then body.temperature = req.temperature end
  if req.tools and #req.tools > 0 then
    local tools = json.array()
    for i, t in ipairs(req.tools) do
      tools[i] = { name = t.name, description = t.description, input_schema = t.parameters }
    end
    body.tools = tools
  end
  local headers = {
    ["content-type"] = "application/json",
    accept = "text/event-stream",
    ["anthropic-version"] = API_VERSION,
  }
  if provider.api_key and provider.api_key ~= "" then headers["x-api-key"] = provider.api_key end
  return { url = url_of(provider.base_url), method = "POST", headers = headers, body = body, framing = "sse" }
end

local function input_tokens(u)
  if u.input_tokens == nil then return nil end
  return u.input_tokens + (u.cache_creation_input_tokens or 0) + (u.cache_read_input_tokens or 0)
end

-- Called for every event, so it sticks to plain field access (each call of type() costs in fengari).
function M.event(ev, state)
  local d = ev.data
  if not d then return nil end
  local kind = d.type or ev.event
  if kind == "content_block_delta" then
    local delta = d.delta or {}
    if delta.type == "text_delta" then
      return { { type = "text", text = delta.text } }
    elseif delta.type == "input_json_delta" then
      return { { type = "tool_call", index = d.index, args = delta.partial_json } }
    elseif delta.type == "thinking_delta" then
      return { { type = "progress" } } -- not part of the answer, but the model is working on it
    end
    return nil -- signature_delta, citations: not part of the answer text
  elseif kind == "content_block_start" then
    local block = d.content_block or {}
    if block.type == "tool_use" then
      state.tool_blocks = state.tool_blocks or {}
      state.tool_blocks[d.index] = true
      local call = { type = "tool_call", index = d.index, id = block.id, name = block.name }
      -- The input starts as {} and arrives through input_json_delta; a non-empty one here is the whole input.
      if type(block.input) == "table" and next(block.input) ~= nil then call.args_object = block.input end
      return { call }
    elseif block.type == "text" and block.text and block.text ~= "" then
      return { { type = "text", text = block.text } }
    end
  elseif kind == "content_block_stop" then
    if state.tool_blocks and state.tool_blocks[d.index] then
      return { { type = "tool_call", index = d.index, done = true } }
    end
  elseif kind == "message_start" then
    local usage = d.message and d.message.usage
    if usage then return { { type = "usage", input = input_tokens(usage), output = usage.output_tokens } } end
  elseif kind == "message_delta" then
    local out = {}
    local reason = d.delta and d.delta.stop_reason
    if reason then out[#out + 1] = { type = "finish", reason = FINISH[reason] or reason, raw = reason } end
    if d.usage then out[#out + 1] = { type = "usage", input = input_tokens(d.usage), output = d.usage.output_tokens } end
    return out
  elseif kind == "error" then
    local e = d.error or {}
    return { { type = "error", message = e.message or "the provider reported an error", kind = e.type, retryable = TRANSIENT[e.type] == true } }
  end
  return nil -- ping, message_stop
end

function M.http_error(status, data, text)
  if type(data) ~= "table" or type(data.error) ~= "table" then return nil end
  local e = data.error
  local info = { message = e.message, kind = e.type }
  if TRANSIENT[e.type] then info.retryable = true end
  return info
end

return M
