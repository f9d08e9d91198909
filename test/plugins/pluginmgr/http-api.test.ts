// pluginmgr's HTTP API against a real homed with the real built-in: who may call it (token, Host, no
// CORS), its files, its size caps and deadlines while streaming, and installs from a local server.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { PluginStatus } from '../../../protocol';
import { makeTempDir, runHomectl, startHomed, waitFor, type HomedHandle } from '../../harness/homed';
import { validFiles, zipBuffer } from '../../kernel/packages/helpers';
import { buildZip, parseZip, rename } from '../../kernel/packages/raw-zip';
import {
  call,
  corsHeaders,
  listDir,
  packFixture,
  readAnswer,
  readApi,
  serveFile,
  startPackageServer,
  writeSlowly,
  type Answer,
  type Api,
  type PackageServer,
} from './helpers';

const MIB = 1024 * 1024;

describe('the pluginmgr HTTP API', () => {
  let homed: HomedHandle;
  let api: Api;
  let work: string;
  let server: PackageServer;
  let downloads: string;
  let weather: string;
  const ctl = (...args: string[]) => runHomectl(args, { dataDir: homed.dataDir });
  const setting = async (key: string, value: string): Promise<void> => {
    const set = await ctl('config', 'set', `pluginmgr:${key}`, value);
    assert.equal(set.code, 0, set.stderr);
  };

  before(async () => {
    homed = await startHomed();
    api = readApi(homed.dataDir);
    work = makeTempDir('pluginmgr-');
    downloads = path.join(homed.dataDir, 'plugin-data', 'pluginmgr', 'downloads');
    weather = await packFixture('weather-js-v1', work);
    server = await startPackageServer({
      '/weather.hmap': serveFile(weather),
      '/moved': (_req, res) => void res.writeHead(302, { location: '/weather.hmap' }).end(),
      '/to-file': (_req, res) => void res.writeHead(302, { location: `file://${weather}` }).end(),
      '/stall': async (_req, res, served) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.write(Buffer.alloc(1024));
        served.bytesWritten = 1024;
        await served.closed;
      },
      '/huge': (_req, res, served) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return writeSlowly(res, served, 8 * MIB);
      },
      '/huge-declared': (_req, res) => void res.writeHead(200, { 'content-length': String(64 * MIB) }).end(),
    });
  });
  after(async () => {
    await server?.close();
    await homed?.cleanup();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('writes a 0600 token of 256 random bits and the port it listens on', async () => {
    for (const file of [api.tokenFile, api.portFile]) assert.equal(fs.statSync(file).mode & 0o777, 0o600, file);
    assert.match(api.token, /^[0-9a-f]{64}$/);
    const listed = await call(api, '/plugins');
    assert.equal(listed.status, 200, listed.text);
    const names = (listed.json['plugins'] as PluginStatus[]).map((p) => p.name);
    assert.ok(names.includes('pluginmgr') && names.includes('cli'), names.join(','));
    assert.deepEqual(corsHeaders(listed), []);
  });

  it('answers 401 with WWW-Authenticate: Bearer without a token or with a wrong one', async () => {
    const wrong = `${api.token.slice(0, -1)}${api.token.endsWith('0') ? '1' : '0'}`;
    const cases: [string, Answer][] = [
      ['no token', await call(api, '/plugins', { token: null })],
      ['wrong token', await call(api, '/plugins', { token: wrong })],
      ['a shorter token', await call(api, '/plugins', { token: api.token.slice(0, 32) })],
      ['basic auth', await call(api, '/plugins', { token: null, headers: { authorization: `Basic ${Buffer.from(`x:${api.token}`).toString('base64')}` } })],
      ['no token on POST', await call(api, '/plugins', { token: null, body: { url: server.url('/weather.hmap') } })],
    ];
    for (const [what, answer] of cases) {
      assert.equal(answer.status, 401, `${what}: ${answer.text}`);
      assert.match(answer.headers['www-authenticate'] ?? '', /^Bearer\b/, what);
      assert.equal(answer.json.code, 'HA_ERR_UNAUTHORIZED', what);
      assert.deepEqual(corsHeaders(answer), [], what);
    }
    assert.equal(server.served.length, 0, 'an unauthenticated POST must not download anything');
    assert.ok(!fs.existsSync(path.join(homed.dataDir, 'plugins', 'weather')));
  });

  it('refuses a foreign Host even with the right token (DNS rebinding); loopback names with the port pass', async () => {
    for (const host of [`evil.example:${api.port}`, 'evil.example', `127.0.0.1:${api.port + 1}`, '127.0.0.1', `localhost.evil.example:${api.port}`]) {
      const answer = await call(api, '/plugins', { host });
      assert.equal(answer.status, 421, `${host}: ${answer.text}`);
      assert.equal(answer.json.code, 'HA_ERR_FOREIGN_HOST');
      assert.deepEqual(corsHeaders(answer), []);
    }
    for (const host of [`localhost:${api.port}`, `LOCALHOST:${api.port}`, `[::1]:${api.port}`]) {
      assert.equal((await call(api, '/plugins', { host })).status, 200, host);
    }
  });

  it('sends no Access-Control-* header, OPTIONS preflights included; other methods get 405 with Allow', async () => {
    const preflight = { origin: 'http://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' };
    const anonymous = await call(api, '/plugins', { method: 'OPTIONS', token: null, headers: preflight });
    const authorised = await call(api, '/plugins', { method: 'OPTIONS', headers: preflight });
    const withOrigin = await call(api, '/plugins', { headers: { origin: 'http://evil.example' } });
    for (const answer of [anonymous, authorised, withOrigin]) assert.deepEqual(corsHeaders(answer), [], answer.text);
    assert.equal(anonymous.status, 401);
    assert.equal(authorised.status, 405);
    assert.equal(authorised.headers['allow'], 'GET, POST');
    assert.equal(withOrigin.status, 200);
    const put = await call(api, '/plugins/cli', { method: 'PUT' });
    assert.equal(put.status, 405);
    assert.equal(put.headers['allow'], 'GET, DELETE');
    assert.equal(put.json.code, 'HA_ERR_METHOD_NOT_ALLOWED');
    const nowhere = await call(api, '/admin');
    assert.equal(nowhere.status, 404);
    assert.match(nowhere.json.error ?? '', /no such path \/admin/);
  });

  it('installs from a URL (through a redirect), shows it, and removes it', async () => {
    const installed = await call(api, '/plugins', { method: 'POST', body: { url: server.url('/moved') } });
    assert.equal(installed.status, 200, installed.text);
    assert.equal(installed.json['installed'], true);
    assert.equal((installed.json['plugin'] as PluginStatus).state, 'ready');
    const pkg = installed.json['package'] as { source: string; bytes: number; sha256: string };
    assert.equal(pkg.source, server.url('/weather.hmap'));
    assert.equal(pkg.bytes, fs.statSync(weather).size);
    const info = await call(api, '/plugins/weather');
    assert.equal(info.status, 200, info.text);
    assert.deepEqual((info.json['plugin'] as { tools: string[] }).tools, ['weather_report']);
    assert.deepEqual(listDir(downloads), [], 'the downloaded file is gone once installed');
    const removed = await call(api, '/plugins/weather?purge=1', { method: 'DELETE' });
    assert.equal(removed.status, 200, removed.text);
    assert.deepEqual(removed.json, { removed: true, name: 'weather', purged: true });
    assert.ok(!fs.existsSync(path.join(homed.dataDir, 'plugins', 'weather')));
    assert.equal((await call(api, '/plugins/weather')).status, 404);
    assert.equal((await call(api, '/plugins/weather', { method: 'DELETE' })).status, 404);
    assert.equal((await call(api, '/plugins/cli', { method: 'DELETE' })).status, 409, 'a built-in cannot be removed');
  });

  it('uploads a package as the body; inspect installs nothing; a sha256 pin that does not match is refused', async () => {
    const body = fs.readFileSync(weather);
    const inspected = await call(api, '/plugins?inspect=1', { method: 'POST', body, headers: { 'content-type': 'application/octet-stream' } });
    assert.equal(inspected.status, 200, inspected.text);
    assert.equal(inspected.json['installed'], false);
    assert.equal((inspected.json['package'] as { source: string }).source, 'upload');
    assert.ok(!fs.existsSync(path.join(homed.dataDir, 'plugins', 'weather')));
    const pinned = await call(api, `/plugins?sha256=${'0'.repeat(64)}`, { method: 'POST', body });
    assert.equal(pinned.status, 409, pinned.text);
    assert.equal(pinned.json.code, 'HA_ERR_PACKAGE_CHANGED');
    assert.ok(!fs.existsSync(path.join(homed.dataDir, 'plugins', 'weather')));
    assert.deepEqual(listDir(downloads), []);
  });

  it('answers an installer refusal with 422 naming the entry and the rule', async () => {
    const zip = parseZip(await zipBuffer(validFiles('evil', '1.0.0')));
    rename(zip.entries[2] as Parameters<typeof rename>[0], '../evil.mjs');
    const refused = await call(api, '/plugins', { method: 'POST', body: buildZip(zip) });
    assert.equal(refused.status, 422, refused.text);
    assert.equal(refused.json.code, 'HA_ERR_INVALID_VALUE');
    assert.match(refused.json.error ?? '', /entry "\.\.\/evil\.mjs" of upload\.hmap is refused: .*rule path\.traversal/);
    assert.equal((refused.json['facts'] as { rule: string }).rule, 'path.traversal');
    assert.deepEqual(listDir(downloads), []);
  });

  it('refuses redirects to other schemes and URLs it does not take', async () => {
    const toFile = await call(api, '/plugins', { method: 'POST', body: { url: server.url('/to-file') } });
    assert.equal(toFile.status, 502, toFile.text);
    assert.match(toFile.json.error ?? '', /redirected to file:\/\/.*only http:\/\/ and https:\/\/ redirects are followed/);
    const ftp = await call(api, '/plugins', { method: 'POST', body: { url: 'ftp://127.0.0.1/x.hmap' } });
    assert.equal(ftp.status, 400, ftp.text);
    assert.match(ftp.json.error ?? '', /ftp:\/\/ URLs are not taken/);
    const missing = await call(api, '/plugins', { method: 'POST', body: { url: server.url('/nope.hmap') } });
    assert.equal(missing.status, 502);
    assert.match(missing.json.error ?? '', /answered 404/);
    const noUrl = await call(api, '/plugins', { method: 'POST', body: { file: 'x' } });
    assert.equal(noUrl.status, 400);
    assert.match(noUrl.json.error ?? '', /needs "url"/);
  });

  describe('with a 1 MiB cap and a 1 s deadline', () => {
    before(async () => {
      await setting('max_package_mb', '1');
      await setting('download_timeout', '1s');
    });
    after(async () => {
      await setting('max_package_mb', '0');
      await setting('download_timeout', '60s');
    });

    it('answers 413 to a body whose Content-Length is past the cap, before reading it', async () => {
      const answer = await new Promise<Answer>((resolve, reject) => {
        const request = http.request(
          {
            host: '127.0.0.1',
            port: api.port,
            path: '/plugins',
            method: 'POST',
            agent: false,
            headers: {
              authorization: `Bearer ${api.token}`,
              'content-type': 'application/octet-stream',
              'content-length': String(2 * MIB),
            },
          },
          (response) => void readAnswer(response).then(resolve, reject),
        );
        request.on('error', reject);
        request.flushHeaders(); // headers only: the answer must come without the body
      });
      assert.equal(answer.status, 413, answer.text);
      assert.equal(answer.json.code, 'HA_ERR_TOO_LARGE');
      assert.match(answer.json.error ?? '', /larger than the 1 MiB cap/);
    });

    it('with Expect: 100-continue, refuses an oversized upload before asking for it, and takes one within the cap', async () => {
      const upload = (body: Buffer, declared: number) =>
        new Promise<{ answer: Answer; continued: boolean }>((resolve, reject) => {
          let continued = false;
          const request = http.request(
            {
              host: '127.0.0.1',
              port: api.port,
              path: '/plugins?inspect=1',
              method: 'POST',
              agent: false,
              headers: {
                authorization: `Bearer ${api.token}`,
                'content-type': 'application/octet-stream',
                'content-length': String(declared),
                expect: '100-continue',
              },
            },
            (response) => void readAnswer(response).then((answer) => resolve({ answer, continued }), reject),
          );
          request.on('continue', () => {
            continued = true;
            request.end(body);
          });
          request.on('error', reject);
          request.flushHeaders();
        });
      const big = await upload(Buffer.alloc(0), 2 * MIB);
      assert.equal(big.answer.status, 413, big.answer.text);
      assert.equal(big.continued, false, 'no 100 Continue for a body that will be refused');
      const pkg = fs.readFileSync(weather);
      const small = await upload(pkg, pkg.length);
      assert.equal(small.answer.status, 200, small.answer.text);
      assert.equal(small.continued, true);
      assert.equal(small.answer.json['installed'], false);
    });

    it('answers 413 once a streamed body passes the cap, without waiting for the rest', async () => {
      // A chunked body (no length to judge by) of 1.5 MiB that never ends: only counting can refuse it.
      const answer = await new Promise<Answer>((resolve, reject) => {
        const request = http.request(
          {
            host: '127.0.0.1',
            port: api.port,
            path: '/plugins',
            method: 'POST',
            agent: false,
            headers: {
              authorization: `Bearer ${api.token}`,
              'content-type': 'application/octet-stream',
            },
          },
          (response) => void readAnswer(response).then(resolve, reject),
        );
        request.on('error', reject);
        for (let sent = 0; sent < 1.5 * MIB; sent += 64 * 1024) request.write(Buffer.alloc(64 * 1024, 0x62));
      });
      assert.equal(answer.status, 413, answer.text);
      assert.equal(answer.json.code, 'HA_ERR_TOO_LARGE');
      assert.match(answer.json.error ?? '', /the uploaded package is larger than the 1 MiB cap/);
      await waitFor(() => listDir(downloads).length === 0, { what: 'the partial upload to be deleted', timeoutMs: 10_000 });
    });

    it('refuses a download past the cap while it streams, and one whose Content-Length is past it at once', async () => {
      const streamed = await call(api, '/plugins', { method: 'POST', body: { url: server.url('/huge') } });
      assert.equal(streamed.status, 413, streamed.text);
      assert.match(streamed.json.error ?? '', /\/huge is larger than the 1 MiB cap/);
      const huge = server.served.find((s) => s.path === '/huge');
      assert.ok(huge);
      await huge.closed;
      assert.ok(huge.cutOff, 'the download must be cut off');
      assert.ok(huge.bytesWritten < 8 * MIB, `pluginmgr took ${huge.bytesWritten} bytes before stopping`);
      const declared = await call(api, '/plugins', { method: 'POST', body: { url: server.url('/huge-declared') } });
      assert.equal(declared.status, 413, declared.text);
      assert.match(declared.json.error ?? '', /by its Content-Length/);
      assert.deepEqual(listDir(downloads), []);
    });

    it('abandons a download that stalls past the deadline and leaves no temporary file', async () => {
      const stalled = await call(api, '/plugins', { method: 'POST', body: { url: server.url('/stall') } });
      assert.equal(stalled.status, 504, stalled.text);
      assert.equal(stalled.json.code, 'HA_ERR_TIMEOUT');
      assert.match(stalled.json.error ?? '', /did not finish within 1 s/);
      const stall = server.served.find((s) => s.path === '/stall');
      assert.ok(stall);
      await stall.closed;
      assert.deepEqual(listDir(downloads), []);
      assert.ok(!fs.existsSync(path.join(homed.dataDir, 'plugins', 'weather')));
    });
  });

  it('logs refused requests under pluginmgr, and still serves', async () => {
    const logs = await ctl('plugins', 'logs', 'pluginmgr');
    assert.match(logs.stdout, /refused an API request/);
    assert.equal((await call(api, '/plugins')).status, 200);
  });

  it('closes the port and removes both files when stopped; a new start issues a new token', async () => {
    const stopped = await ctl('plugins', 'stop', 'pluginmgr');
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.ok(!fs.existsSync(api.tokenFile) && !fs.existsSync(api.portFile), 'both files are removed');
    await assert.rejects(call(api, '/plugins'), /ECONNREFUSED/);
    const started = await ctl('plugins', 'start', 'pluginmgr');
    assert.equal(started.code, 0, started.stderr);
    const again = readApi(homed.dataDir);
    assert.notEqual(again.token, api.token);
    assert.equal((await call(again, '/plugins', { token: api.token })).status, 401, 'the old token is dead');
    assert.equal((await call(again, '/plugins')).status, 200);
    api = again;
  });
});
