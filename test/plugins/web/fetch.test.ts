// web_fetch against real HTTP servers on 127.0.0.1 (allowed through web:allow_private for that host:port only):
// pages, redirects, caps, time limits, cancellation, and the refusals of the address rule and of binary types.
import assert from 'node:assert/strict';
import * as zlib from 'node:zlib';
import { describe, it } from 'node:test';
import { RefusedAddressError } from '../../../plugins/web/address-policy';
import { webFetch } from '../../../plugins/web/fetch';
import { waitFor } from '../../harness/wait';
import { NEVER, settings, startServer } from './servers';

const MiB = 1024 * 1024;

const PAGE = `<!doctype html><html><head><title>Allotment &amp; garden rota</title>
<style>body { color: red }</style><script>var secret = "not text";</script></head>
<body><nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<h1>Water rota</h1><p>The tap is switched on on <b>1 April</b>.</p>
<ul><li>Plot 4: Lin</li><li>Plot 7: Sam</li></ul>
<p>See the <a href="/rules.html">site rules</a> and <a href="https://example.org/x">the council page</a>.</p>
<img src="/map.png" alt="map"></body></html>`;

const allowOnly = (port: number, more: Record<string, unknown> = {}) => settings({ allow_private: [`127.0.0.1:${port}`], ...more });

describe('web_fetch', () => {
  it('reads an HTML page as text: title, headings, lists, links as "text [url]", no scripts, styles, navigation or images', async (t) => {
    const server = await startServer(t, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    });
    const url = `${server.origin}/rota`;
    const result = await webFetch({ url }, allowOnly(server.port), NEVER);
    assert.equal(result.title, 'Allotment & garden rota');
    assert.equal(result.final_url, url);
    assert.equal(result.status, 200);
    assert.equal(result.content_type, 'text/html');
    assert.equal(result.truncated, false);
    assert.equal(result.bytes, Buffer.byteLength(PAGE));
    assert.match(result.text, /^# Water rota$/m);
    assert.match(result.text, /The tap is switched on on 1 April\./);
    assert.match(result.text, /\* Plot 4: Lin\n \* Plot 7: Sam|\* Plot 4: Lin\n\* Plot 7: Sam/);
    assert.match(result.text, new RegExp(`site rules \\[${server.origin}/rules\\.html\\]`));
    assert.match(result.text, /the council page \[https:\/\/example\.org\/x\]/);
    for (const noise of ['secret', 'color', 'Home', 'About', 'map']) assert.doesNotMatch(result.text, new RegExp(noise), `"${noise}" is left out`);
    assert.ok(result.ms >= 0 && result.ms < 10_000, `${result.ms} ms`);
  });

  it('passes plain text and JSON through, cuts text at max_chars, and sends a User-Agent naming HomeAgent', async (t) => {
    const agents: string[] = [];
    const server = await startServer(t, (req, res) => {
      agents.push(String(req.headers['user-agent']));
      if (req.url === '/data.json') res.writeHead(200, { 'content-type': 'application/json' }).end('{"a": [1, 2]}');
      else res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' }).end(Buffer.from('caf\xe9 '.repeat(100), 'latin1'));
    });
    const json = await webFetch({ url: `${server.origin}/data.json` }, allowOnly(server.port), NEVER);
    assert.deepEqual([json.text, json.title, json.content_type], ['{"a": [1, 2]}', '', 'application/json']);
    const text = await webFetch({ url: `${server.origin}/notes.txt`, max_chars: 12 }, allowOnly(server.port), NEVER);
    assert.equal(text.text, 'café café ca');
    assert.equal(text.truncated, true);
    assert.equal(text.bytes, 500);
    const limited = await webFetch({ url: `${server.origin}/notes.txt`, max_chars: 10_000 }, allowOnly(server.port, { max_chars_limit: 100 }), NEVER);
    assert.equal(limited.text.length, 100, 'max_chars is capped by web:max_chars_limit');
    assert.match(agents[0]!, /HomeAgent/);
  });

  it('follows a redirect chain of 5 to its final URL, and refuses the 6th redirect', async (t) => {
    const server = await startServer(t, (req, res) => {
      const n = Number(/^\/r\/(\d+)$/.exec(req.url ?? '')?.[1] ?? -1);
      if (n > 0) res.writeHead(n % 2 ? 302 : 301, { location: `/r/${n - 1}` }).end();
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('arrived');
    });
    const five = await webFetch({ url: `${server.origin}/r/5` }, allowOnly(server.port), NEVER);
    assert.deepEqual([five.final_url, five.text, five.url], [`${server.origin}/r/0`, 'arrived', `${server.origin}/r/5`]);
    server.paths.length = 0;
    await assert.rejects(
      webFetch({ url: `${server.origin}/r/6` }, allowOnly(server.port), NEVER),
      new RegExp(`web_fetch stopped at ${server.origin}/r/1: it redirects to ${server.origin}/r/0, and web_fetch follows at most 5 redirects`),
    );
    assert.deepEqual(server.paths, ['/r/6', '/r/5', '/r/4', '/r/3', '/r/2', '/r/1'], 'the 6th redirect is not followed');
  });

  it('refuses a redirect to another 127.0.0.1 port that is not allowed, naming the address, without connecting to it', async (t) => {
    const other = await startServer(t, (_req, res) => res.writeHead(200).end('secret admin page'));
    const server = await startServer(t, (_req, res) => res.writeHead(302, { location: `${other.origin}/admin` }).end());
    const error = await webFetch({ url: `${server.origin}/go` }, allowOnly(server.port), NEVER).then(
      () => assert.fail('the redirect was followed'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof RefusedAddressError, String(error));
    assert.equal(error.address, '127.0.0.1');
    assert.match(error.message, new RegExp(`^web_fetch refused the redirect to ${other.origin}/admin: 127\\.0\\.0\\.1 is a loopback address; `));
    assert.match(
      error.message,
      new RegExp(
        `unless the setting web:allow_private allows them \\(e\\.g\\. homectl config set web:allow_private '\\["127\\.0\\.0\\.1:${other.port}"\\]'\\)`,
      ),
    );
    assert.equal(other.connections, 0);
  });

  it('refuses a host name that resolves to a loopback address, and loopback literals in every spelling, unless allowed', async (t) => {
    const server = await startServer(t, (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('local'));
    await assert.rejects(
      webFetch({ url: `http://localhost:${server.port}/` }, settings(), NEVER),
      /localhost resolves to (127\.0\.0\.1|::1), a loopback address/,
    );
    for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]', '127.1', '0x7f.0.0.1', '[::ffff:7f00:1]']) {
      await assert.rejects(webFetch({ url: `http://${host}:${server.port}/` }, settings(), NEVER), /127\.0\.0\.1 is a loopback address/, host);
    }
    await assert.rejects(webFetch({ url: `http://0.0.0.0:${server.port}/` }, settings(), NEVER), /0\.0\.0\.0 is an unspecified address/);
    assert.equal(server.connections, 0);
    const allowedByName = await webFetch({ url: `http://localhost:${server.port}/` }, settings({ allow_private: [`localhost:${server.port}`] }), NEVER);
    assert.equal(allowedByName.text, 'local');
    const allowedByCidr = await webFetch({ url: `http://127.0.0.1:${server.port}/` }, settings({ allow_private: ['127.0.0.0/8'] }), NEVER);
    assert.equal(allowedByCidr.text, 'local');
  });

  it('refuses images, PDFs and octet-stream with their type and size, and an untyped binary body', async (t) => {
    const server = await startServer(t, (req, res) => {
      if (req.url === '/untyped') {
        res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
        return;
      }
      const type = req.url === '/a.png' ? 'image/png' : req.url === '/a.pdf' ? 'application/pdf' : 'application/octet-stream';
      res.writeHead(200, { 'content-type': type, 'content-length': 300 * 1024 }).end(Buffer.alloc(300 * 1024));
    });
    const allow = allowOnly(server.port);
    await assert.rejects(
      webFetch({ url: `${server.origin}/a.png` }, allow, NEVER),
      new RegExp(`does not read ${server.origin}/a.png: content type image/png \\(300 KiB\\); it reads HTML, plain text, JSON and XML only`),
    );
    await assert.rejects(webFetch({ url: `${server.origin}/a.pdf` }, allow, NEVER), /content type application\/pdf \(300 KiB\)/);
    await assert.rejects(webFetch({ url: `${server.origin}/a.bin` }, allow, NEVER), /content type application\/octet-stream \(300 KiB\)/);
    await assert.rejects(webFetch({ url: `${server.origin}/untyped` }, allow, NEVER), /no content type, and the body is binary/);
  });

  it('reads at most web:max_bytes of a 50 MB body, fast, and stops the transfer there', async (t) => {
    const total = 50 * 1024 * 1024;
    let sent = 0;
    const server = await startServer(t, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': total });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = (): void => {
        while (sent < total && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    const result = await webFetch({ url: `${server.origin}/big.txt`, max_chars: 100 }, allowOnly(server.port), NEVER);
    const ms = performance.now() - started;
    const rssGrowth = process.memoryUsage().rss - rssBefore;
    assert.equal(result.bytes, 5 * MiB, 'the default web:max_bytes');
    assert.equal(result.truncated, true);
    assert.equal(result.text, 'a'.repeat(100));
    await waitFor(() => server.open === 0, { what: 'the connection to close', timeoutMs: 5000 });
    t.diagnostic(
      `50 MB body: ${Math.round(ms)} ms to read 5 MiB, the server got ${(sent / MiB).toFixed(1)} MiB out, RSS grew ${(rssGrowth / MiB).toFixed(1)} MiB`,
    );
    assert.ok(sent < 20 * MiB, `the server could send only ${(sent / MiB).toFixed(1)} MiB of 50 before the connection closed`);
    assert.ok(ms < 5000, `read in ${Math.round(ms)} ms`);
    assert.ok(rssGrowth < 40 * MiB, `RSS grew ${(rssGrowth / MiB).toFixed(1)} MiB`);
  });

  it('caps a gzip bomb at web:max_bytes of decoded bytes', async (t) => {
    const bomb = zlib.gzipSync(Buffer.alloc(64 * MiB, ' '));
    const server = await startServer(t, (_req, res) => res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(bomb));
    const result = await webFetch({ url: `${server.origin}/bomb` }, allowOnly(server.port, { max_bytes: MiB }), NEVER);
    assert.equal(bomb.length < MiB, true);
    assert.deepEqual([result.bytes, result.truncated], [MiB, true]);
  });

  it('times out a slow body after web:timeout, closing the connection', async (t) => {
    const server = await startServer(t, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('the first words, then nothing');
    });
    const started = performance.now();
    await assert.rejects(
      webFetch({ url: `${server.origin}/slow` }, allowOnly(server.port, { timeout: 1000 }), NEVER),
      new RegExp(`^Error: web_fetch of ${server.origin}/slow did not finish within 1 s \\(the setting web:timeout\\)$`),
    );
    const ms = performance.now() - started;
    assert.ok(ms >= 990 && ms < 4000, `gave up after ${Math.round(ms)} ms`);
    await waitFor(() => server.open === 0, { what: 'the connection to close', timeoutMs: 5000 });
  });

  it('stops at once when the call is cancelled', async (t) => {
    const server = await startServer(t, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('streaming');
    });
    const cancel = new AbortController();
    const fetching = webFetch({ url: `${server.origin}/stream` }, allowOnly(server.port), cancel.signal);
    await waitFor(() => server.paths.length === 1 || undefined, { what: 'the request to arrive', timeoutMs: 5000 });
    const started = performance.now();
    cancel.abort();
    await assert.rejects(fetching, new RegExp(`^Error: web_fetch of ${server.origin}/stream was cancelled$`));
    const ms = performance.now() - started;
    t.diagnostic(`cancelled in ${ms.toFixed(1)} ms`);
    assert.ok(ms < 500, `stopped ${Math.round(ms)} ms after the cancel`);
    await waitFor(() => server.open === 0, { what: 'the connection to close', timeoutMs: 5000 });
  });

  it('refuses what is not an http or https URL, and bad allow_private entries, saying what to write', async () => {
    await assert.rejects(
      webFetch({ url: 'example.org' }, settings(), NEVER),
      /web_fetch needs an absolute http or https URL, like https:\/\/example\.org\/page; "example\.org" is not one/,
    );
    await assert.rejects(webFetch({ url: 'file:///etc/passwd' }, settings(), NEVER), /web_fetch needs an http or https URL; file:\/\/\/etc\/passwd is file/);
    assert.throws(
      () => settings({ allow_private: ['nas.lan', 'http://nas'] }),
      /web:allow_private has an entry "http:\/\/nas" that is not a host name, host:port, address or CIDR; write entries like/,
    );
    assert.throws(() => settings({ allow_private: 'nas.lan' }), /web:allow_private must be a list of strings/);
  });
});
