// The page in a real browser (Debian's chromium driven by playwright-core) against a real homed: the one-time
// link signs in, the shell loads from the plugin alone and shows homed's version; a browser without the cookie
// sees only the sign-in page; a name that resolves here (DNS rebinding) gets the 421 refusal, and a page of another
// origin on this machine cannot open the WebSocket even with the cookie in the browser.
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { callOnce } from '../../../plugins/cli/client';
import type { Page } from 'playwright-core';
import { waitFor } from '../../harness/wait';
import { SocketApi } from '../../../protocol';
import { FORGED_HOST, skip, startBrowserHarness, type BrowserHarness } from './browser-harness';

/** What a probe page's WebSocket did: `open`, then how it closed. */
interface Probe {
  opened: boolean;
  closed?: { code: number; clean: boolean };
}

/** Opens `target` and records in window.probe whether it opened and how it closed. */
function probeScript(target: string): string {
  return (
    `window.probe = { opened: false };\n` +
    `const ws = new WebSocket(${JSON.stringify(target)});\n` +
    `ws.onopen = () => { window.probe.opened = true; ws.close(1000); };\n` +
    `ws.onclose = (e) => { window.probe.closed = { code: e.code, clean: e.wasClean }; };\n`
  );
}

/**
 * A page of another origin (this machine, another port): its script opens `target` and records what happened in
 * window.probe. The script is a file of its own, as a real page's would be.
 */
async function startProbeServer(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const script = probeScript(target);
  const server = http.createServer((request, response) => {
    if (request.url === '/probe.js') return void response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>probe</title><script src="/probe.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('the web page in chromium', { skip }, () => {
  let harness: BrowserHarness;
  let live: BrowserHarness['live'];
  before(async () => {
    harness = await startBrowserHarness();
    live = harness.live;
  });
  after(async () => {
    await harness?.close();
  });

  it('signs in with the one-time link and shows the shell with homed’s version, loading nothing from elsewhere', async () => {
    const { context, page, foreign, errors } = await harness.guardedPage();
    await page.goto(live.link());
    const { version } = await callOnce(live.homed.socket, SocketApi.KernelStatus, {});
    await page.getByLabel('Kernel status').getByText(`homed ${version}`).waitFor({ timeout: 20_000 });
    assert.equal(await page.getByRole('status', { name: 'Connection' }).textContent(), 'Connected');
    assert.equal(await page.getByRole('button', { name: 'Chat', exact: true }).count(), 1);
    for (const name of ['Plugins', 'Settings', 'Memory', 'Knowledge', 'Timers'])
      assert.equal(await page.getByRole('button', { name, exact: true }).count(), 1, name);
    assert.equal(new URL(page.url()).hash, '', 'the secret left the address bar');
    const cookies = await context.cookies();
    assert.deepEqual(
      cookies.map((c) => [c.name, c.httpOnly, c.sameSite]),
      [['homeagent_session', true, 'Strict']],
    );
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('shows a browser without the cookie only how to get a link, and a spent link says so', async () => {
    const { context, page, foreign } = await harness.guardedPage();
    await page.goto(`${live.origin}/`);
    await page.getByText('homectl webui open').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Chat' }).count(), 0);
    const link = live.link();
    const first = await harness.browser.newContext();
    const firstPage = await first.newPage();
    await firstPage.goto(link);
    await firstPage.getByLabel('Kernel status').waitFor();
    await first.close();
    const spent = await context.newPage();
    await spent.goto(link);
    await spent.getByText(/not valid/).waitFor();
    assert.equal(await spent.getByRole('button', { name: 'Chat' }).count(), 0);
    assert.deepEqual(foreign, []);
    await context.close();
  });

  it('refuses a forged Host: a name that resolves to 127.0.0.1 gets the 421 answer as a readable page, not the app', async () => {
    const context = await harness.browser.newContext();
    const page = await context.newPage();
    const response = await page.goto(`http://${FORGED_HOST}:${live.port}/`);
    assert.equal(response?.status(), 421);
    assert.equal(await page.textContent('h1'), 'HomeAgent refused this request', 'a readable page, not raw JSON');
    assert.equal(
      await page.textContent('p'),
      `this server does not answer to the host name "${FORGED_HOST}:${live.port}"; open the address homectl webui open prints`,
    );
    assert.equal(await page.getByRole('button', { name: 'Chat' }).count(), 0);
    assert.equal(await page.locator('script').count(), 0, 'no script of the page is served');
    await context.close();
  });

  it('refuses a WebSocket from a page of another origin, though the browser holds the cookie; the page’s own opens', async (t) => {
    const { context, page } = await harness.signedInPage();
    // This context may reach the probe's origin: the guard against other origins is lifted for it.
    await context.unrouteAll();
    const target = `ws://127.0.0.1:${live.port}/ws`;
    const probe = await startProbeServer(target);
    t.after(() => probe.close());
    // Same site (127.0.0.1), other port: SameSite=Strict sends the cookie along, so only the Origin check stands.
    const foreign = await context.newPage();
    await foreign.goto(probe.url);
    await probeSettled(foreign);
    const refused = (await foreign.evaluate('window.probe')) as Probe;
    assert.equal(refused.opened, false, 'the socket never opened');
    assert.equal(refused.closed?.code, 1006, 'closed without a handshake');

    // The control: the same script on the page's own origin opens.
    await page.evaluate(`{ ${probeScript(target)} }`);
    await probeSettled(page);
    assert.equal(((await page.evaluate('window.probe')) as Probe).opened, true);
    await context.close();
  });
});

/**
 * Waits until the probe's socket opened and closed, or closed unopened. Asked from here with page.evaluate (the
 * DevTools protocol, which the page's CSP does not govern): waitForFunction's in-page polling compiles its predicate,
 * and the web page's CSP (no eval) refuses that.
 */
async function probeSettled(page: Page): Promise<void> {
  await waitFor(async () => (await page.evaluate('window.probe !== undefined && window.probe.closed !== undefined')) === true, {
    what: 'the probe socket to settle',
    timeoutMs: 10_000,
  });
}
