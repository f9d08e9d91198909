// The webui server through inject(): pages, assets, headers, Host and Origin refusals, the sign-in exchange,
// cookie renewal and revoke, and the WebSocket transport's framing rules.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LOGIN_POLICY } from '../../../plugins/webui/logins';
import { BAD_LINK } from '../../../plugins/webui/server';
import { refusalLogger } from '../../../plugins/webui/refusal-log';
import { CONTENT_SECURITY_POLICY } from '../../../plugins/webui/security';
import { readHostNames } from '../../../plugins/webui/settings';
import { cookieOf, HOST, ORIGIN, PORT, testServer } from './helpers';

const DAY = 24 * 3600_000;

describe('webui server: pages and headers', () => {
  it('shows a browser without a session only the sign-in page, whose script is a file', async (t) => {
    const { app } = await testServer(t);
    const answer = await app.inject({ url: '/', headers: { host: HOST } });
    assert.equal(answer.statusCode, 200);
    assert.match(answer.headers['content-type'] as string, /^text\/html/);
    assert.match(answer.body, /homectl webui open/);
    assert.doesNotMatch(answer.body, /<script>|<script [^>]*>[^<]/, 'no inline script');
    assert.doesNotMatch(answer.body, /id="app"/, 'not the app shell');
    const script = /src="\/assets\/(login-[\w]+\.js)"/.exec(answer.body)?.[1];
    assert.ok(script, answer.body);
    const file = await app.inject({ url: `/assets/${script}`, headers: { host: HOST } });
    assert.equal(file.statusCode, 200);
    assert.equal(file.headers['cache-control'], 'public, max-age=31536000, immutable');
  });

  it('puts the CSP, nosniff, no-referrer and no-store on pages, API answers and errors, and no CORS header', async (t) => {
    const { app } = await testServer(t);
    const answers = await Promise.all([
      app.inject({ url: '/', headers: { host: HOST } }),
      app.inject({ url: '/nothing-here', headers: { host: HOST } }),
      app.inject({ method: 'POST', url: '/api/login', headers: { host: HOST, origin: ORIGIN }, payload: { secret: 'x' } }),
      app.inject({ url: '/', headers: { host: 'evil.example:8420' } }),
    ]);
    // An unknown path tells a browser without a session nothing but that it is not signed in.
    assert.deepEqual(
      answers.map((a) => a.statusCode),
      [200, 401, 401, 421],
    );
    for (const answer of answers) {
      assert.equal(answer.headers['content-security-policy'], CONTENT_SECURITY_POLICY);
      assert.equal(answer.headers['x-content-type-options'], 'nosniff');
      assert.equal(answer.headers['referrer-policy'], 'no-referrer');
      assert.equal(answer.headers['cache-control'], 'no-store');
      assert.deepEqual(
        Object.keys(answer.headers).filter((h) => h.startsWith('access-control-')),
        [],
      );
    }
    assert.match(CONTENT_SECURITY_POLICY, /script-src 'self';/);
    assert.doesNotMatch(CONTENT_SECURITY_POLICY, /unsafe-inline|unsafe-eval/);
  });

  it('serves the app shell and its assets to a signed-in browser only', async (t) => {
    const { app, signIn } = await testServer(t);
    const shellScript = async (cookie?: string): Promise<string | undefined> => {
      const page = await app.inject({ url: '/', headers: { host: HOST, ...(cookie ? { cookie } : {}) } });
      return /src="\/assets\/(app-[\w]+\.js)"/.exec(page.body)?.[1];
    };
    assert.equal(await shellScript(), undefined);
    const cookie = await signIn();
    const script = await shellScript(cookie);
    assert.ok(script);
    const without = await app.inject({ url: `/assets/${script}`, headers: { host: HOST } });
    assert.equal(without.statusCode, 401);
    const withCookie = await app.inject({ url: `/assets/${script}`, headers: { host: HOST, cookie } });
    assert.equal(withCookie.statusCode, 200);
    assert.match(withCookie.headers['content-type'] as string, /^text\/javascript/);
    assert.equal((await app.inject({ url: '/assets/..%2Fmanifest.json', headers: { host: HOST, cookie } })).statusCode, 404);
  });
});

describe('webui server: Host and Origin', () => {
  it('answers the loopback names at its port and refuses any other Host (DNS rebinding)', async (t) => {
    const { app } = await testServer(t);
    const status = async (host: string): Promise<number> => (await app.inject({ url: '/', headers: { host } })).statusCode;
    for (const host of [`127.0.0.1:${PORT}`, `localhost:${PORT}`, `[::1]:${PORT}`, `LOCALHOST:${PORT}`]) assert.equal(await status(host), 200, host);
    for (const host of ['evil.example', `evil.example:${PORT}`, `127.0.0.1:${PORT + 1}`, '127.0.0.1', `192.168.1.5:${PORT}`])
      assert.equal(await status(host), 421, host);
    const refused = await app.inject({ url: '/', headers: { host: 'rebound.example:8420' } });
    assert.match(refused.json<{ error: string }>().error, /rebound\.example/);
    const navigated = await app.inject({ url: '/', headers: { host: 'rebound.example:8420', accept: 'text/html,application/xhtml+xml' } });
    assert.equal(navigated.statusCode, 421);
    assert.match(navigated.headers['content-type'] as string, /^text\/html/);
    assert.match(
      navigated.body,
      /<p>this server does not answer to the host name &quot;rebound\.example:8420&quot;; open the address homectl webui open prints<\/p>/,
    );
  });

  it('under lan also answers the machine’s own addresses and name, nothing else', async (t) => {
    const { app } = await testServer(t, { bind: 'lan', lanNames: ['192.168.1.5', 'house', '[fe80::1]'] });
    const status = async (host: string): Promise<number> => (await app.inject({ url: '/', headers: { host } })).statusCode;
    for (const host of ['192.168.1.5:8420', 'house:8420', 'HOUSE:8420', '[fe80::1]:8420', '127.0.0.1:8420']) assert.equal(await status(host), 200, host);
    for (const host of ['192.168.1.6:8420', 'house.evil.example:8420']) assert.equal(await status(host), 421, host);
  });

  it('answers the names webui:hosts adds under lan, and links sign-ins with the first; under loopback they stay refused', async (t) => {
    const names = readHostNames(['HomeAgent.lan', ' kitchen-box ']);
    assert.deepEqual(names, ['homeagent.lan', 'kitchen-box']);
    const lan = await testServer(t, { bind: 'lan', lanNames: ['192.168.1.5'], extraNames: names });
    const status = async (app: typeof lan.app, host: string): Promise<number> => (await app.inject({ url: '/', headers: { host } })).statusCode;
    for (const host of ['homeagent.lan:8420', 'KITCHEN-BOX:8420', '192.168.1.5:8420']) assert.equal(await status(lan.app, host), 200, host);
    assert.equal(await status(lan.app, 'evil.lan:8420'), 421);
    assert.equal(lan.hosts.baseUrl(), `http://homeagent.lan:${PORT}`);
    const loopback = await testServer(t, { bind: 'loopback', extraNames: names });
    assert.equal(await status(loopback.app, 'homeagent.lan:8420'), 421);
    assert.equal(loopback.hosts.baseUrl(), `http://127.0.0.1:${PORT}`);
  });

  it('refuses a webui:hosts entry that is not a host name, naming it', () => {
    assert.deepEqual(readHostNames(undefined), []);
    assert.throws(() => readHostNames('homeagent.lan'), /webui:hosts must be a JSON list of host names, e\.g\. \["homeagent\.lan"\]/);
    for (const bad of ['http://homeagent.lan', 'homeagent.lan:8420', '', 'a b', 7]) {
      assert.throws(
        () => readHostNames(['ok.lan', bad]),
        new RegExp(`webui:hosts\\[1\\] is ${JSON.stringify(bad).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}, not a host name`),
        String(bad),
      );
    }
  });

  it('refuses a state-changing request without the same Origin', async (t) => {
    const { app, logins } = await testServer(t);
    for (const origin of [undefined, 'http://evil.example', `https://${HOST}`, `http://localhost:${PORT}`, 'null']) {
      const secret = logins.issueLink();
      const answer = await app.inject({ method: 'POST', url: '/api/login', headers: { host: HOST, ...(origin ? { origin } : {}) }, payload: { secret } });
      assert.equal(answer.statusCode, 403, String(origin));
      assert.match(answer.json<{ error: string }>().error, /origin/);
      assert.equal(answer.headers['set-cookie'], undefined);
    }
    const good = await app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { host: `localhost:${PORT}`, origin: `http://localhost:${PORT}` },
      payload: { secret: logins.issueLink() },
    });
    assert.equal(good.statusCode, 200, 'same origin by another loopback name');
  });

  it('logs Host and Origin refusals, one line per kind a minute, counting the repeats it left out', async (t) => {
    const lines: { message: string; fields: Record<string, unknown> }[] = [];
    const clock = { now: 0 };
    const onRefusal = refusalLogger(
      (message, fields) => lines.push({ message, fields }),
      60_000,
      () => clock.now,
    );
    const { app } = await testServer(t, { extra: { onRefusal } });
    for (let i = 0; i < 5; i++) assert.equal((await app.inject({ url: '/', headers: { host: 'rebound.example:8420' } })).statusCode, 421);
    const forged = await app.inject({ method: 'POST', url: '/api/login', headers: { host: HOST, origin: 'http://evil.example' }, payload: { secret: 'x' } });
    assert.equal(forged.statusCode, 403);
    assert.equal(lines.length, 2, JSON.stringify(lines));
    assert.match(lines[0]?.message ?? '', /host name "rebound\.example:8420"/);
    assert.deepEqual(lines[0]?.fields, { status: 421, method: 'GET', url: '/', host: 'rebound.example:8420', from: '127.0.0.1' });
    assert.match(lines[1]?.message ?? '', /POST request from origin "http:\/\/evil\.example"/);
    assert.equal(lines[1]?.fields['origin'], 'http://evil.example');
    clock.now = 60_000;
    await app.inject({ url: '/', headers: { host: 'rebound.example:8420' } });
    assert.equal(lines.length, 3);
    assert.equal(lines[2]?.fields['repeats_not_logged'], 4);
  });
});

describe('webui server: sign-in', () => {
  it('exchanges a link once for an HttpOnly, SameSite=Strict, 30-day cookie; a reused link gets the same 401 as a wrong one', async (t) => {
    const { app, logins } = await testServer(t);
    const secret = logins.issueLink();
    assert.match(secret, /^[A-Za-z0-9_-]{43}$/, '256 bits, base64url');
    const post = (s: string) =>
      app.inject({ method: 'POST', url: '/api/login', headers: { host: HOST, origin: ORIGIN, 'user-agent': 'TestBrowser/1' }, payload: { secret: s } });
    const first = await post(secret);
    assert.equal(first.statusCode, 200);
    const setCookie = first.headers['set-cookie'] as string;
    assert.match(setCookie, /^homeagent_session=[A-Za-z0-9_-]{43}; /);
    for (const part of ['HttpOnly', 'SameSite=Strict', 'Path=/', `Max-Age=${LOGIN_POLICY.sessionMs / 1000}`])
      assert.ok(setCookie.includes(part), `${part} in ${setCookie}`);
    assert.ok(!setCookie.includes('Secure'), 'no Secure over plain HTTP');
    const again = await post(secret);
    const wrong = await post('A'.repeat(43));
    assert.deepEqual([again.statusCode, wrong.statusCode], [401, 401]);
    assert.equal(again.body, wrong.body);
    assert.equal(again.json<{ error: string }>().error, BAD_LINK);
    const [session] = logins.list();
    assert.equal(session?.userAgent, 'TestBrowser/1');
  });

  it('refuses a link older than ten minutes with the same 401', async (t) => {
    const { app, logins, clock } = await testServer(t);
    const secret = logins.issueLink();
    clock.now += LOGIN_POLICY.linkMs;
    const answer = await app.inject({ method: 'POST', url: '/api/login', headers: { host: HOST, origin: ORIGIN }, payload: { secret } });
    assert.equal(answer.statusCode, 401);
    assert.equal(answer.json<{ error: string }>().error, BAD_LINK);
    clock.now -= 1;
    assert.ok(logins.redeem(logins.issueLink(), ''), 'a fresh link still works');
  });

  it('limits wrong tries per address: the eleventh in a minute gets 429, yet a good link still signs in', async (t) => {
    const { app, logins, clock } = await testServer(t);
    const post = (secret: string, remoteAddress = '127.0.0.1') =>
      app.inject({ method: 'POST', url: '/api/login', remoteAddress, headers: { host: HOST, origin: ORIGIN }, payload: { secret } });
    for (let i = 0; i < 10; i++) assert.equal((await post(`guess${i}`)).statusCode, 401);
    const limited = await post('guess10');
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.headers['retry-after'], '60');
    assert.match(limited.json<{ error: string }>().error, /too many wrong sign-in tries.*homectl webui open/);
    assert.equal(limited.headers['content-security-policy'], CONTENT_SECURITY_POLICY);
    const good = await post(logins.issueLink());
    assert.equal(good.statusCode, 200, 'a valid link is taken from a limited address');
    assert.equal(logins.list().length, 1);
    assert.equal((await post('guess11')).statusCode, 429, 'wrong tries stay limited');
    assert.equal((await post('guess0', '127.0.0.2')).statusCode, 401, 'another address has its own allowance');
    clock.now += 60_000;
    assert.equal((await post('guess12')).statusCode, 401, 'a minute later the address may try again');
  });

  it('renews the cookie when used after half its life, and ends it after 30 days unused', async (t) => {
    const { app, signIn, clock } = await testServer(t);
    const cookie = await signIn();
    const get = () => app.inject({ url: '/', headers: { host: HOST, cookie } });
    clock.now += 14 * DAY;
    const early = await get();
    assert.match(early.body, /id="app"/);
    assert.equal(early.headers['set-cookie'], undefined, 'not renewed before half its life');
    clock.now += 2 * DAY;
    const renewed = await get();
    assert.match(renewed.body, /id="app"/);
    assert.equal(cookieOf(renewed.headers['set-cookie']), cookie, 'the same cookie, sent again with a new Max-Age');
    clock.now += 29 * DAY;
    assert.match((await get()).body, /id="app"/, 'the renewal moved its end');
    clock.now += 30 * DAY;
    assert.doesNotMatch((await get()).body, /id="app"/, 'expired');
  });

  it('revokes one session by id or all of them; a revoked cookie gets the sign-in page; sign-out ends its own', async (t) => {
    const { app, logins, signIn } = await testServer(t);
    const [a, b, c] = [await signIn(), await signIn(), await signIn()];
    const signedIn = async (cookie: string) => /id="app"/.test((await app.inject({ url: '/', headers: { host: HOST, cookie } })).body);
    const ids = logins.list().map((s) => s.id);
    assert.equal(new Set(ids).size, 3);
    const firstId = ids[0] as string;
    assert.equal(logins.revoke({ id: firstId }), 1);
    assert.equal(logins.revoke({ id: firstId }), 0);
    const still: string[] = [];
    for (const cookie of [a, b, c]) if (await signedIn(cookie)) still.push(cookie);
    assert.equal(still.length, 2);
    const out = await app.inject({ method: 'POST', url: '/api/logout', headers: { host: HOST, origin: ORIGIN, cookie: still[0] as string } });
    assert.equal(out.statusCode, 204);
    assert.match(out.headers['set-cookie'] as string, /Max-Age=0/);
    assert.equal(logins.list().length, 1);
    assert.equal(logins.revoke({ all: true }), 1);
    assert.deepEqual(await Promise.all([a, b, c].map(signedIn)), [false, false, false]);
  });

  it('stores only hashes: neither a link secret nor a cookie token is in the database file', async (t) => {
    const { app, logins, signIn } = await testServer(t);
    const secret = logins.issueLink();
    const cookie = await signIn();
    await app.close();
    const file = (logins as unknown as { db: { name: string } }).db.name;
    logins.close();
    const bytes = await import('node:fs').then((fs) =>
      Buffer.concat([fs.readFileSync(file), ...['-wal'].filter((s) => fs.existsSync(file + s)).map((s) => fs.readFileSync(file + s))]),
    );
    assert.equal(bytes.includes(secret), false);
    assert.equal(bytes.includes(cookie.split('=')[1] as string), false);
  });
});
