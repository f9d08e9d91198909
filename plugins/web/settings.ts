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

/** The defaults by key, as plugin.json declares them (used where a value is missing or not a positive number). */
export const DEFAULTS = {
  [SETTING.maxBytes]: 5 * 1024 * 1024,
  [SETTING.timeout]: 20_000,
  [SETTING.maxChars]: 20_000,
  [SETTING.maxCharsLimit]: 100_000,
  [SETTING.allowPrivate]: [],
  [SETTING.searchUrl]: '',
} as const;

/** Reads every setting of the plugin at once. */
export async function readSettings(config: PluginConfig): Promise<WebSettings> {
  const values = new Map((await config.list()).map((entry) => [entry.key, entry.value]));
  return settingsFrom((key) => values.get(key));
}

/** Builds the settings from stored values (the kernel already checked their types against the manifest). */
export function settingsFrom(value: (key: string) => unknown): WebSettings {
  const num = (key: keyof typeof DEFAULTS & string): number => {
    const v = value(key);
    return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : (DEFAULTS[key] as number);
  };
  const searchUrl = value(SETTING.searchUrl);
  return {
    maxBytes: num(SETTING.maxBytes),
    timeoutMs: num(SETTING.timeout),
    maxChars: num(SETTING.maxChars),
    maxCharsLimit: num(SETTING.maxCharsLimit),
    allowPrivate: parseAllowList(value(SETTING.allowPrivate)),
    searchUrl: typeof searchUrl === 'string' ? searchUrl.trim() : '',
  };
}
