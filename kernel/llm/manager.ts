import type { Logger } from 'pino';
import { formatDuration } from '../../protocol/format';
import { CORE_SCOPE, type ConfigRegistry } from '../config';
import { AdapterStore } from './adapter-store';
import { defineLlmConfig } from './config-defs';
import { fitMessages } from './fit-request';
import { LlmAbortError, LlmError, noProviderError } from './errors';
import { failoverNotice, tellPerson } from './notices';
import { LuaProvider, type ProviderSettings } from './provider';
import { loadRetryPolicy, type RetryPolicy } from './retry';
import type { LlmRequest, LlmResult, StreamHooks } from './types';

const PROVIDER_KEY = /^llm\.provider\.([a-z0-9_-]+)\.[a-z0-9_]+$/;
const PROVIDER_NAME = /^[a-z0-9_-]+$/;
const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_DEADLINE_MS = 600_000;
/** The setting every request to the model is held to (the agent declares it; unset, only a context window bounds). */
const BUDGET_KEY = 'core.context.budget_tokens';

/** A provider as UIs may show it: no secret, only whether one is set. */
export interface ProviderInfo {
  name: string;
  adapter: string;
  baseUrl?: string;
  model?: string;
  maxTokens?: number;
  timeoutMs: number;
  /** Longest time for one whole attempt. */
  deadlineMs: number;
  hasApiKey: boolean;
  /** It is `llm.default`. */
  isDefault: boolean;
  /** Its place in `llm.fallbacks` (1 = tried first after the default), if listed. */
  fallbackRank?: number;
}

export interface ProviderManagerOptions {
  /** Read for HOMEAGENT_LLM_RETRY (tests shrink the backoff with it). */
  env?: NodeJS.ProcessEnv;
  log?: Logger;
  /** Replaces parts of the retry policy (tests). */
  retry?: Partial<RetryPolicy>;
  /** Where the shipped adapters are (default: beside this file). */
  builtinAdapterDir?: string;
  /** Hears every answer that came back (its provider, model and tokens), e.g. to count usage. */
  onAnswer?(result: LlmResult): void;
}

/**
 * The kernel's LLM providers, read from config at each request (a `homectl config set` applies to the
 * next request): the requested or default provider first, then `llm.fallbacks` in order. A provider is
 * retried per the retry policy; when it gives up (or fails with a non-retryable error) the next one is
 * tried, unless text already reached the caller. An abort ends everything at once.
 */
export class ProviderManager {
  private readonly adapters: AdapterStore;
  // Provider settings, the providers built from them and the failover chain are read from config once,
  // until an llm.* setting changes (an adapter file is still checked at every request).
  private readonly settingsCache = new Map<string, ProviderSettings>();
  private readonly providerCache = new Map<string, LuaProvider>();
  private readonly chainCache = new Map<string, string[]>();
  private namesCache: string[] | undefined;
  private retryCache: RetryPolicy | undefined;

  constructor(
    private readonly config: ConfigRegistry,
    dataDir: string,
    private readonly options: ProviderManagerOptions = {},
  ) {
    defineLlmConfig(config);
    config.onChange(({ key }) => {
      if (!key.startsWith('llm.')) return;
      this.settingsCache.clear();
      this.providerCache.clear();
      this.chainCache.clear();
      this.namesCache = undefined;
      this.retryCache = undefined;
    });
    const log = options.log;
    this.adapters = new AdapterStore(dataDir, options.builtinAdapterDir, log === undefined ? undefined : (adapter, line) => log.info({ adapter }, line));
  }

  /** The folder where an owner drops adapters of their own (`<data>/adapters`). */
  get adapterDir(): string {
    return this.adapters.userDir;
  }

  /** Answers a request through the chain of providers; `hooks.provider` picks the first one instead of llm.default. */
  async complete(req: LlmRequest, hooks: StreamHooks & { provider?: string } = {}): Promise<LlmResult> {
    const chain = this.chain(hooks.provider);
    const failures: LlmError[] = [];
    for (const name of chain) {
      try {
        const result = await this.provider(name).complete(this.fit(req, name), hooks);
        this.options.onAnswer?.(result);
        return result;
      } catch (error) {
        if (!(error instanceof LlmError) || error.streamed) throw error;
        if (hooks.signal?.aborted) throw new LlmAbortError(name, error.partial, hooks.signal.reason);
        failures.push(error);
        const next = chain[chain.indexOf(name) + 1];
        if (next === undefined) continue;
        this.options.log?.warn({ provider: name, kind: error.kind, status: error.status, next }, `${error.message}; trying LLM provider "${next}"`);
        tellPerson(hooks, failoverNotice(error, next));
      }
    }
    throw exhausted(failures);
  }

  /**
   * Builds a request for the first provider ahead of time (a turn does it while its stage handlers work); a
   * later complete() that asks exactly the same sends it, whatever other requests run meanwhile. Errors are
   * left for the call to report.
   */
  prepare(req: LlmRequest, provider?: string): void {
    let first: LuaProvider;
    try {
      first = this.provider(this.chain(provider)[0] as string);
    } catch {
      return;
    }
    first.prepare(this.fit(req, first.name));
  }

  /**
   * The request as provider `name` gets it: within core.context.budget_tokens and its context window (less room for
   * the answer), big messages shortened head and tail; the same object when it already fits, so what prepare()
   * built matches. Every caller — turns, sub-agents, distill, consolidation, llm/complete — passes through here.
   */
  private fit(req: LlmRequest, name: string): LlmRequest {
    const limits: number[] = [];
    const budget = this.readNumber(BUDGET_KEY);
    if (budget !== undefined) limits.push(budget);
    const { contextWindow, maxTokens } = this.settingsOf(name);
    if (contextWindow !== undefined) limits.push(contextWindow - (req.maxTokens ?? maxTokens ?? Math.floor(contextWindow / 4)));
    if (limits.length === 0) return req;
    const messages = fitMessages(req.messages, Math.max(1, Math.min(...limits)));
    return messages === req.messages ? req : { ...req, messages };
  }

  /** Builds the provider named `name` from its settings; throws a config LlmError naming what is missing. */
  provider(name: string): LuaProvider {
    const settings = this.settingsOf(name);
    const adapter = this.adapters.load(settings.adapter, name);
    const cached = this.providerCache.get(name);
    if (cached?.adapter === adapter) return cached;
    const provider = new LuaProvider(settings, adapter, this.retryPolicy(), ({ provider, attempt, waitMs, error }) =>
      this.options.log?.warn({ provider, attempt, waitMs, kind: error.kind, status: error.status }, `${error.message}; retrying in ${formatDuration(waitMs)}`),
    );
    this.providerCache.set(name, provider);
    return provider;
  }

  /** Every configured provider (one with any `llm.provider.<name>.*` key stored), without secrets. */
  describe(): ProviderInfo[] {
    const defaultName = this.readString('llm.default');
    const fallbacks = this.fallbacks();
    return this.providerNames().map((name) => {
      const info: ProviderInfo = {
        name,
        adapter: this.readString(`llm.provider.${name}.adapter`) ?? 'openai',
        timeoutMs: this.readNumber(`llm.provider.${name}.timeout`) ?? DEFAULT_TIMEOUT_MS,
        deadlineMs: this.readNumber(`llm.provider.${name}.deadline`) ?? DEFAULT_DEADLINE_MS,
        hasApiKey: (this.readString(`llm.provider.${name}.api_key`) ?? '') !== '',
        isDefault: name === defaultName,
      };
      const baseUrl = this.readString(`llm.provider.${name}.base_url`);
      const model = this.readString(`llm.provider.${name}.model`);
      const maxTokens = this.readNumber(`llm.provider.${name}.max_tokens`);
      if (baseUrl !== undefined) info.baseUrl = baseUrl;
      if (model !== undefined) info.model = model;
      if (maxTokens !== undefined) info.maxTokens = maxTokens;
      const rank = fallbacks.indexOf(name);
      if (rank !== -1) info.fallbackRank = rank + 1;
      return info;
    });
  }

  /** Names of the configured providers, sorted. */
  providerNames(): string[] {
    if (this.namesCache) return this.namesCache;
    this.namesCache = this.readProviderNames();
    return this.namesCache;
  }

  private readProviderNames(): string[] {
    const names = new Set<string>();
    for (const entry of this.config.list(CORE_SCOPE)) {
      const match = entry.isSet ? PROVIDER_KEY.exec(entry.key) : null;
      if (match) names.add(match[1] as string);
    }
    return [...names].sort();
  }

  /** The providers tried, in order: the requested (or default) one, then the fallbacks. */
  chain(requested?: string): string[] {
    const key = requested ?? '';
    let chain = this.chainCache.get(key);
    if (!chain) this.chainCache.set(key, (chain = this.readChain(requested)));
    return chain;
  }

  private readChain(requested: string | undefined): string[] {
    const known = this.providerNames();
    let first = requested ?? this.readString('llm.default');
    if (first === undefined) {
      if (known.length === 0) throw noProviderError();
      if (known.length > 1) {
        throw new LlmError(
          `llm.default is not set and there are several LLM providers (${known.join(', ')}); choose one with: homectl config set llm.default ${known[0]}`,
          { kind: 'config' },
        );
      }
      first = known[0] as string;
    }
    if (!known.includes(first)) {
      const source = requested === undefined ? `llm.default is "${first}", but` : `the request names LLM provider "${first}", but`;
      if (known.length === 0) throw noProviderError(`${source} no LLM provider is configured`);
      throw new LlmError(
        `${source} no provider "${first}" is configured (known: ${known.join(', ')}); set it up with homectl config set llm.provider.${first}.adapter openai, … .base_url, … .model and … .api_key`,
        { kind: 'config', provider: first },
      );
    }
    return [...new Set([first, ...this.fallbacks().filter((name) => known.includes(name))])];
  }

  private settingsOf(name: string): ProviderSettings {
    let settings = this.settingsCache.get(name);
    if (!settings) this.settingsCache.set(name, (settings = this.readSettings(name)));
    return settings;
  }

  private readSettings(name: string): ProviderSettings {
    if (!PROVIDER_NAME.test(name))
      throw new LlmError(`"${name}" is not a valid LLM provider name; use lower-case letters, digits, '_' and '-'`, { kind: 'config', provider: name });
    const model = this.readString(`llm.provider.${name}.model`);
    if (model === undefined) {
      throw new LlmError(`LLM provider "${name}" has no model; set one with: homectl config set llm.provider.${name}.model <model name>`, {
        kind: 'config',
        provider: name,
      });
    }
    const settings: ProviderSettings = {
      name,
      adapter: this.readString(`llm.provider.${name}.adapter`) ?? 'openai',
      model,
      timeoutMs: this.readNumber(`llm.provider.${name}.timeout`) ?? DEFAULT_TIMEOUT_MS,
      deadlineMs: this.readNumber(`llm.provider.${name}.deadline`) ?? DEFAULT_DEADLINE_MS,
    };
    const baseUrl = this.readString(`llm.provider.${name}.base_url`);
    const apiKey = this.readString(`llm.provider.${name}.api_key`);
    const maxTokens = this.readNumber(`llm.provider.${name}.max_tokens`);
    if (baseUrl !== undefined) settings.baseUrl = baseUrl;
    if (apiKey !== undefined) settings.apiKey = apiKey;
    if (maxTokens !== undefined) settings.maxTokens = maxTokens;
    const contextWindow = this.readNumber(`llm.provider.${name}.context_window`);
    if (contextWindow !== undefined) settings.contextWindow = contextWindow;
    return settings;
  }

  private retryPolicy(): RetryPolicy {
    this.retryCache ??= { ...loadRetryPolicy((key) => this.config.getValue(CORE_SCOPE, key), this.options.env ?? process.env), ...this.options.retry };
    return this.retryCache;
  }

  private fallbacks(): string[] {
    return (this.readString('llm.fallbacks') ?? '').split(/[\s,]+/).filter((name) => name !== '');
  }

  private readString(key: string): string | undefined {
    const value = this.config.getValue(CORE_SCOPE, key);
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  }

  private readNumber(key: string): number | undefined {
    const value = this.config.getValue(CORE_SCOPE, key);
    return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  }
}

function exhausted(failures: LlmError[]): LlmError {
  if (failures.length === 1) return failures[0] as LlmError;
  const lines = failures.map((f) => `  ${f.provider ?? '?'}: ${f.message}`).join('\n');
  return new LlmError(`every LLM provider failed:\n${lines}`, { kind: 'exhausted', failures });
}
