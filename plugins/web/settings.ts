// The owner's settings for the web tools, read fresh for each call (one config/list), so a change applies to the
// next call without a restart; only search_url needs one (it decides whether web_search is declared at all).
import type { PluginConfig } from '../../plugin-host';
import { parseAllowList, type AllowRule } from './address-policy';
import { SETTING } from './policy';

/** What one call runs with. */
export interface WebSettings {
  maxBytes: number;
  timeoutMs: number;
  /** Characters of text a call gets when it asks for none. */
  maxChars: number;
  /** The most characters a call may ask for. */
  maxCharsLimit: number;
  allowPrivate: AllowRule[];
  /** The SearXNG base URL; '' when none is set. */
  searchUrl: string;
}

/** The defaults, as the manifest declares them (used when a value is missing or of the wrong type). */
export const DEFAULT_SETTINGS: WebSettings = {
  maxBytes: 5 * 1024 * 1024,
  timeoutMs: 20_000,
  maxChars: 20_000,
  maxCharsLimit: 100_000,
  allowPrivate: [],
  searchUrl: '',
};

/** Reads every setting of the plugin at once. */
export async function readSettings(config: PluginConfig): Promise<WebSettings> {
  const values = new Map((await config.list()).map((entry) => [entry.key, entry.value]));
  return settingsFrom((key) => values.get(key));
}

/** Builds the settings from stored values (the kernel already checked their types against the manifest). */
export function settingsFrom(value: (key: string) => unknown): WebSettings {
  const num = (key: string, fallback: number): number => {
    const v = value(key);
    return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : fallback;
  };
  const searchUrl = value(SETTING.searchUrl);
  return {
    maxBytes: num(SETTING.maxBytes, DEFAULT_SETTINGS.maxBytes),
    timeoutMs: num(SETTING.timeout, DEFAULT_SETTINGS.timeoutMs),
    maxChars: num(SETTING.maxChars, DEFAULT_SETTINGS.maxChars),
    maxCharsLimit: num(SETTING.maxCharsLimit, DEFAULT_SETTINGS.maxCharsLimit),
    allowPrivate: parseAllowList(value(SETTING.allowPrivate)),
    searchUrl: typeof searchUrl === 'string' ? searchUrl.trim() : '',
  };
}
