// web_search through the owner's SearXNG (`web:search_url`): its JSON API, `/search?q=…&format=json`. The endpoint
// is the owner's own choice, so it is exempt from the private-address rule (a SearXNG on the LAN is the usual
// case); the time limit and a size cap still apply.
import { startDeadline } from '../../plugin-host';
import { parseHttpUrl } from './fetch';
import { openHop } from './http-hop';
import { deadlineReasons, SETTING, WEB_POLICY, type WebPolicy } from './policy';
import { readBody } from './read-body';
import type { WebSettings } from './settings';

/** The arguments of web_search. */
export interface SearchArgs {
  query: string;
  count?: number;
}

/** One result. */
export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

/** What web_search answers. */
export interface SearchResult {
  query: string;
  results: SearchHit[];
}

/** The URL of a search for `query` on the SearXNG at `base` (its root, or its /search page). */
export function searchUrlFor(base: string, query: string): URL {
  const url = parseHttpUrl(base, `the setting web:${SETTING.searchUrl} must be`);
  if (!url.pathname.endsWith('/search')) url.pathname = `${url.pathname.replace(/\/+$/, '')}/search`;
  url.search = '';
  url.searchParams.set('q', query);
  url.searchParams.set('format', 'json');
  return url;
}

/** Asks the SearXNG for `args.query` and answers its first `count` results. */
export async function webSearch(args: SearchArgs, settings: WebSettings, cancel: AbortSignal, policy: WebPolicy = WEB_POLICY): Promise<SearchResult> {
  if (settings.searchUrl === '') {
    throw new Error(
      `web_search has no search endpoint: set one with homectl config set web:${SETTING.searchUrl} http://searx.lan:8080, then homectl plugins restart web`,
    );
  }
  const url = searchUrlFor(settings.searchUrl, args.query);
  const count = Math.min(args.count ?? policy.searchCount.default, policy.searchCount.max);
  const where = `the SearXNG at ${url.origin}${url.pathname}`;
  const deadline = startDeadline(settings.timeoutMs, cancel, deadlineReasons(`web_search on ${where}`, settings.timeoutMs));
  try {
    const response = await openHop({ url, signal: deadline.signal, userAgent: policy.userAgent, accept: 'application/json' }).catch((error: unknown) => {
      if (deadline.signal.aborted) throw error;
      throw new Error(`web_search could not reach ${where}: ${(error as Error).message}; check web:${SETTING.searchUrl}`);
    });
    const body = await readBody(response, policy.searchMaxBytes, deadline.signal);
    if (response.statusCode !== 200) throw new Error(describeFailure(where, response.statusCode ?? 0, body.data.toString('utf8', 0, 200)));
    return { query: args.query, results: readHits(body.data, where, body.truncated).slice(0, count) };
  } catch (error) {
    throw deadline.explain(error);
  } finally {
    deadline.dispose();
  }
}

function describeFailure(where: string, status: number, start: string): string {
  const hint =
    status === 403
      ? 'SearXNG answers 403 when its JSON format is off: add json to search.formats in its settings.yml'
      : status === 429
        ? 'it is limiting requests (its limiter or bot detection); allow this host in its settings or try later'
        : `check web:${SETTING.searchUrl}`;
  return `web_search: ${where} answered HTTP ${status} (${JSON.stringify(start.trim().slice(0, 120))}); ${hint}`;
}

function readHits(data: Buffer, where: string, truncated: boolean): SearchHit[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data.toString('utf8'));
  } catch {
    const why = truncated ? `its answer is over ${data.length} bytes` : 'its answer is not JSON';
    throw new Error(`web_search: ${where} did not answer with SearXNG's JSON (${why}); check web:${SETTING.searchUrl} names a SearXNG instance`);
  }
  const results = (parsed as { results?: unknown }).results;
  if (!Array.isArray(results)) {
    throw new Error(`web_search: ${where} answered JSON without a results list; check web:${SETTING.searchUrl} names a SearXNG instance`);
  }
  return results.flatMap((item: unknown) => {
    const hit = item as { title?: unknown; url?: unknown; content?: unknown };
    if (typeof hit.url !== 'string') return [];
    return [{ title: typeof hit.title === 'string' ? hit.title : '', url: hit.url, snippet: typeof hit.content === 'string' ? hit.content : '' }];
  });
}
