// web_search against a fake SearXNG on 127.0.0.1 that answers in SearXNG's real JSON shape; the endpoint is
// reached although it is a loopback address (the owner chose it), and its failures say what to change.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { searchUrlFor, webSearch } from '../../../plugins/web/search';
import { NEVER, settings, startServer } from './servers';

/** An answer as SearXNG 2024.x gives it for `/search?q=…&format=json` (fields trimmed to what varies). */
function searxAnswer(query: string): object {
  const result = (n: number) => ({
    url: `https://example.org/${n}`,
    title: `Result ${n} for ${query}`,
    content: `Snippet ${n}.`,
    engine: 'duckduckgo',
    parsed_url: ['https', 'example.org', `/${n}`, '', '', ''],
    template: 'default.html',
    engines: ['duckduckgo', 'brave'],
    positions: [n],
    score: 1 / n,
    category: 'general',
    publishedDate: null,
  });
  return {
    query,
    number_of_results: 0,
    results: [1, 2, 3, 4, 5, 6, 7].map(result).concat([{ title: 'no url', content: 'dropped' } as never]),
    answers: [],
    corrections: [],
    infoboxes: [],
    suggestions: ['rota allotment'],
    unresponsive_engines: [['google', 'timeout']],
  };
}

describe('web_search', () => {
  it('asks SearXNG for JSON and answers title, url and snippet of the first results', async (t) => {
    const asked: URL[] = [];
    const searx = await startServer(t, (req, res) => {
      const url = new URL(req.url ?? '/', 'http://searx');
      asked.push(url);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(searxAnswer(url.searchParams.get('q') ?? '')));
    });
    const answer = await webSearch({ query: 'allotment rota' }, settings({ search_url: searx.origin }), NEVER);
    assert.equal(asked[0]?.pathname, '/search');
    assert.deepEqual([asked[0]?.searchParams.get('q'), asked[0]?.searchParams.get('format')], ['allotment rota', 'json']);
    assert.equal(answer.query, 'allotment rota');
    assert.equal(answer.results.length, 5, 'the default count');
    assert.deepEqual(answer.results[0], { title: 'Result 1 for allotment rota', url: 'https://example.org/1', snippet: 'Snippet 1.' });
    const two = await webSearch({ query: 'x', count: 2 }, settings({ search_url: `${searx.origin}/searx/` }), NEVER);
    assert.equal(two.results.length, 2);
    assert.equal(asked[1]?.pathname, '/searx/search', 'a SearXNG under a path');
  });

  it('says how to turn on the JSON format when SearXNG answers 403, and what to check for a non-SearXNG answer', async (t) => {
    const searx = await startServer(t, (req, res) => {
      if (req.url?.startsWith('/off/')) res.writeHead(403, { 'content-type': 'text/html' }).end('<h1>403 Forbidden</h1>');
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<html>a router login page</html>');
    });
    await assert.rejects(
      webSearch({ query: 'x' }, settings({ search_url: `${searx.origin}/off` }), NEVER),
      /answered HTTP 403 .*add json to search\.formats in its settings\.yml/,
    );
    await assert.rejects(
      webSearch({ query: 'x' }, settings({ search_url: searx.origin }), NEVER),
      /did not answer with SearXNG's JSON \(its answer is not JSON\); check web:search_url names a SearXNG instance/,
    );
  });

  it('refuses without an endpoint, or with one that is not an http URL, saying what to set', async () => {
    await assert.rejects(webSearch({ query: 'x' }, settings(), NEVER), /web_search has no search endpoint: set one with homectl config set web:search_url/);
    assert.throws(() => searchUrlFor('searx.lan', 'x'), /the setting web:search_url must be an absolute http or https URL/);
  });
});
