// The web plugin's fixed limits and names, in one place; what the owner may change is a setting (settings.ts).
import type { DeadlineReasons } from '../../plugin-host';
import { formatDuration } from '../../protocol/format';

/** How web_fetch and web_search behave where no setting applies. */
export interface WebPolicy {
  /** Most redirects one web_fetch follows; the next one is refused. */
  maxRedirects: number;
  /** Results web_search returns when the call gives no count, and the most it may ask for. */
  searchCount: { default: number; max: number };
  /** Most bytes of a SearXNG answer read (its JSON lists every result with its engines). */
  searchMaxBytes: number;
  /** Sent with every request, so a site's owner can see who asked. */
  userAgent: string;
}

export const WEB_POLICY: WebPolicy = {
  maxRedirects: 5,
  searchCount: { default: 5, max: 20 },
  searchMaxBytes: 4 * 1024 * 1024,
  userAgent: 'Mozilla/5.0 (compatible; HomeAgent/0.1; web_fetch for a personal agent)',
};

/** The plugin's settings, by key (`web:<key>`). */
export const SETTING = {
  maxBytes: 'max_bytes',
  timeout: 'timeout',
  maxChars: 'max_chars',
  maxCharsLimit: 'max_chars_limit',
  allowPrivate: 'allow_private',
  searchUrl: 'search_url',
} as const;

/** Highest `timeout` the manifest allows: the tools' deadline in the kernel sits a little above it, so the plugin's own clear error comes first. */
export const MAX_TIMEOUT_MS = 120_000;

/** What a web tool's time limit says for `what` (`web_fetch of https://…`): cancelled, or out of time and which setting. */
export function deadlineReasons(what: string, timeoutMs: number): DeadlineReasons {
  return {
    timedOut: () => new Error(`${what} did not finish within ${formatDuration(timeoutMs)} (the setting web:${SETTING.timeout})`),
    cancelled: () => new Error(`${what} was cancelled`),
  };
}
