// Every bound on a method's params, one named constant each, used by the schemas that both the kernel and the
// socket check against (and by any code that needs to say the bound to a person).

/**
 * Most levels of nesting in one client line (the request object is level 1). No method's params come near it;
 * past a few thousand levels serialising the request toward the kernel overflows the stack.
 */
export const MAX_CLIENT_LINE_DEPTH = 64;
/** The latest time a date can hold (ms since the epoch, 275760-09-13): a `since` past it names no day. */
export const MAX_TIME_MS = 8_640_000_000_000_000;
/** Longest session (conversation) id. */
export const MAX_SESSION_CHARS = 200;
/** Longest input id a plugin gives an io/input. */
export const MAX_INPUT_ID_CHARS = 200;
/** Longest message a person may send the agent (io/input, io/interrupt, chat/say). */
export const MAX_INPUT_TEXT_CHARS = 100_000;
/** Longest plugin name (a manifest's name is checked the same way). */
export const MAX_PLUGIN_NAME_CHARS = 64;
/** Longest config scope (`core` or a plugin name). */
export const MAX_CONFIG_SCOPE_CHARS = MAX_PLUGIN_NAME_CHARS;
/** Longest config key. */
export const MAX_CONFIG_KEY_CHARS = 200;
/** Most log lines plugins/logs returns. */
export const MAX_LOG_LINES = 10_000;
/** Most entries sessions/show returns. */
export const MAX_SESSION_ENTRIES = 10_000;
/** Longest absolute path on the kernel's machine (a package, a knowledge file). */
export const MAX_PATH_CHARS = 4096;
/** Longest memory or knowledge search query. */
export const MAX_QUERY_CHARS = 2000;
/** Most hits a memory or knowledge search returns. */
export const MAX_SEARCH_LIMIT = 50;
/** Longest note memory/write keeps. */
export const MAX_MEMORY_TEXT_CHARS = 4000;
/** Longest `source` a memory/write may name. */
export const MAX_MEMORY_SOURCE_CHARS = 200;
/** Longest memory id. */
export const MAX_MEMORY_ID_CHARS = 200;
/** Longest entity name graph/query looks up. */
export const MAX_ENTITY_CHARS = 200;
/** Most relation hops graph/query follows between two entities. */
export const MAX_GRAPH_HOPS = 6;
/** Longest knowledge file name given with a text. */
export const MAX_KNOWLEDGE_NAME_CHARS = 255;
/** Longest knowledge document given as text. */
export const MAX_KNOWLEDGE_TEXT_CHARS = 1_000_000;
/** Most messages of one llm/complete. */
export const MAX_LLM_MESSAGES = 200;
/** Longest LLM provider name an llm/complete may ask for. */
export const MAX_PROVIDER_NAME_CHARS = 64;
/** Most characters all messages of one llm/complete hold together. */
export const MAX_LLM_PROMPT_CHARS = 400_000;
/** Most event names or patterns one events/subscribe may name. */
export const MAX_EVENT_NAMES = 1000;
/**
 * Most event names or patterns one client's events/subscribe may name: the serving plugin keeps a kernel
 * subscription for each pattern any client named, so a client names a few (`plugin.*`, `config.changed`).
 */
export const MAX_CLIENT_EVENT_NAMES = 32;
/** Longest event name or pattern. */
export const MAX_EVENT_NAME_CHARS = 128;
