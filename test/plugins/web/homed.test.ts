// The web plugin in a real homed, driven by the fake LLM: it scripts a web_fetch call, and its answer quotes the
// page the tool fetched (title, final URL, text), so the page went from a real HTTP server through the plugin's
// process and the kernel to the model and out through waiter. web_search is absent until web:search_url is set
// and the plugin restarted, then a call reaches the fake SearXNG.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startFakeLlmFor, type FakeRequest, type FakeScript } from '../../fake-llm/server';
import { fakeProviderEnv, runHomectl, startHomed, type HomedHandle } from '../../harness/homed';
import { runWaiter } from '../../harness/waiter';
import { startServer } from './servers';

const PAGE = '<html><head><title>Allotment rota</title></head><body><h1>Water</h1><p>The tap is switched on on 1 April.</p></body></html>';

/** The tools a model request offered. */
function offeredTools(request: FakeRequest | undefined): string[] {
  const tools = (request?.body as { tools?: { function: { name: string } }[] } | undefined)?.tools ?? [];
  return tools.map((tool) => tool.function.name).sort();
}

/** The last tool result in a model request, parsed. */
function lastToolResult(request: FakeRequest): Record<string, unknown> {
  const messages = (request.body as { messages: { role: string; content: string }[] }).messages;
  const content = messages.filter((m) => m.role === 'tool').at(-1)?.content ?? '{}';
  return JSON.parse(content) as Record<string, unknown>;
}

/** An answer that quotes the fetched page. */
function citePage(request: FakeRequest): FakeScript {
  const page = lastToolResult(request);
  if (typeof page['error'] === 'string') return { text: `I could not fetch it: ${page['error']}` };
  return { text: `According to "${String(page['title'])}" (${String(page['final_url'])}): ${String(page['text']).split('\n').at(-1)}` };
}

async function homectl(homed: HomedHandle, ...args: string[]): Promise<string> {
  const run = await runHomectl(args, { dataDir: homed.dataDir });
  assert.equal(run.code, 0, `homectl ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

describe('the web plugin in homed', () => {
  it('fetches a page for the model, which cites it; refuses an address not allowed; offers web_search once an endpoint is set', async (t) => {
    const llm = await startFakeLlmFor(t);
    const page = await startServer(t, (req, res) => {
      if (req.url === '/old') res.writeHead(301, { location: '/rota' }).end();
      else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    });
    const searx = await startServer(t, (_req, res) => {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(
          JSON.stringify({ query: 'rota', results: [{ url: 'https://example.org/rota', title: 'The rota', content: 'Who waters when.', engine: 'brave' }] }),
        );
    });
    const homed = await startHomed({ env: fakeProviderEnv(llm) });
    t.after(() => homed.cleanup());
    await homectl(homed, 'config', 'set', 'web:allow_private', JSON.stringify([`127.0.0.1:${page.port}`]));

    llm.enqueue({ toolCalls: [{ name: 'web_fetch', args: { url: `${page.origin}/old` } }] }, citePage);
    const said = await runWaiter(['-data', homed.dataDir, '--session', 'cli:web', '-say', 'when is the tap switched on?']);
    assert.equal(said.code, 0, said.stderr);
    assert.equal(said.stdout.trim(), `According to "Allotment rota" (${page.origin}/rota): The tap is switched on on 1 April.`);
    assert.deepEqual(page.paths, ['/old', '/rota']);
    assert.ok(offeredTools(llm.requests[0]).includes('web_fetch'));
    assert.ok(!offeredTools(llm.requests[0]).includes('web_search'), 'no web_search without web:search_url');

    const closed = `http://127.0.0.1:${searx.port}/`;
    llm.enqueue({ toolCalls: [{ name: 'web_fetch', args: { url: closed } }] }, citePage);
    const refused = await runWaiter(['-data', homed.dataDir, '--session', 'cli:web', '-say', 'and the other page?']);
    assert.equal(refused.code, 0, refused.stderr);
    assert.match(
      refused.stdout,
      new RegExp(`I could not fetch it: tool web_fetch failed: .*web_fetch refused ${closed}: 127\\.0\\.0\\.1 is a loopback address; .*web:allow_private`),
    );
    assert.equal(searx.connections, 0);

    await homectl(homed, 'config', 'set', 'web:search_url', searx.origin);
    await homectl(homed, 'plugins', 'restart', 'web');
    llm.enqueue({ toolCalls: [{ name: 'web_search', args: { query: 'rota' } }] }, (request) => {
      const hits = lastToolResult(request)['results'] as { title: string; url: string }[];
      return { text: hits.map((hit) => `${hit.title} <${hit.url}>`).join('; ') };
    });
    const searched = await runWaiter(['-data', homed.dataDir, '--session', 'cli:web', '-say', 'search for the rota']);
    assert.equal(searched.code, 0, searched.stderr);
    assert.equal(searched.stdout.trim(), 'The rota <https://example.org/rota>');
    assert.ok(offeredTools(llm.requests.at(-2)).includes('web_search'), 'web_search is offered once an endpoint is set');
    assert.deepEqual(
      searx.paths.map((p) => p.split('?')[0]),
      ['/search'],
    );
  });
});
