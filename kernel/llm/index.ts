// The kernel's outbound LLM requests: providers from config, Lua adapters per wire format, retries and failover.
export type { LlmMessage, LlmProvider, LlmRequest, LlmResult, LlmToolCall, LlmToolSpec, LlmUsage, StreamHooks } from './types';
export { LlmAbortError, LlmError, isAbortError, noProviderError, type LlmErrorFacts, type LlmErrorKind } from './errors';
export { ProviderManager, type ProviderInfo, type ProviderManagerOptions } from './manager';
export { LuaProvider, type ProviderSettings } from './provider';
export { LuaAdapter, type AdapterProvider, type Delta, type WireEvent, type WireRequest } from './adapter';
export { AdapterStore, BUILTIN_ADAPTERS, BUILTIN_ADAPTER_DIR } from './adapter-store';
export { LuaScriptError } from './lua/vm';
export { DEFAULT_RETRY_POLICY, loadRetryPolicy, parseRetryAfter, type RetryPolicy } from './retry';
export { LLM_DEFS, defineLlmConfig } from './config-defs';
export { seedProviderFromEnv, ENV_PROVIDER_NAME } from './seed-env';
export { NdjsonParser, SseParser, type FramedEvent } from './framing';
