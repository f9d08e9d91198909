// The page in a real browser (Debian's chromium driven by playwright-core) against a real homed: the one-time
// link signs in, the shell loads from the plugin alone and shows homed's version; a browser without the cookie
// sees only the sign-in page.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type BrowserContext, type BrowserServer } from 'playwright-core';
import { requestOnce } from '../../../plugins/cli/client';
import { SocketMethods, type KernelStatus } from '../../../protocol';
import { startLiveWebui, type LiveWebui } from './live';

const CHROMIUM = '/usr/bin/chromium';
// playwright adds --headless itself (headless is its default) and drops a --headless passed here.
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const skip = fs.existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium) to run the browser tests`;

describe('the web page in chromium', { skip }, () => {
  let live: LiveWebui;
  let server: BrowserServer;
  let browser: Browser;
  before(async () => {
    live = await startLiveWebui();
    // playwright gives each launch a fresh temporary profile (its own --user-data-dir) and removes it on close.
    server = await chromium.launchServer({ executablePath: CHROMIUM, args: FLAGS });
    browser = await chromium.connect(server.wsEndpoint());
  });
  after(async () => {
    const pid = server?.process().pid;
    await browser?.close().catch(() => undefined);
    await server?.close().catch(() => undefined);
    // The browser leads its own process group: end it and every renderer it started.
    if (pid !== undefined) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await live?.homed.cleanup();
  });

  /** A fresh context whose requests to any other origin fail the test. */
  async function guardedContext(): Promise<{ context: BrowserContext; foreign: string[] }> {
    const context = await browser.newContext();
    const foreign: string[] = [];
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      if (new URL(url).origin === live.origin) return route.continue();
      foreign.push(url);
      return route.abort();
    });
    return { context, foreign };
  }

  it('signs in with the one-time link and shows the shell with homed’s version, loading nothing from elsewhere', async () => {
    const { context, foreign } = await guardedContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.goto(live.link());
    const { version } = await requestOnce<KernelStatus>(live.homed.socket, SocketMethods.KernelStatus);
    await page.getByLabel('Kernel status').getByText(`homed ${version}`).waitFor({ timeout: 20_000 });
    assert.equal(await page.getByRole('status', { name: 'Connection' }).textContent(), 'Connected');
    for (const name of ['Chat', 'Plugins', 'Settings', 'Memory', 'Knowledge']) assert.equal(await page.getByRole('button', { name, exact: true }).count(), 1, name);
    assert.equal(new URL(page.url()).hash, '', 'the secret left the address bar');
    const cookies = await context.cookies();
    assert.deepEqual(cookies.map((c) => [c.name, c.httpOnly, c.sameSite]), [['homeagent_session', true, 'Strict']]);
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('shows a browser without the cookie only how to get a link, and a spent link says so', async () => {
    const { context, foreign } = await guardedContext();
    const page = await context.newPage();
    await page.goto(`${live.origin}/`);
    await page.getByText('homectl webui open').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Chat' }).count(), 0);
    const link = live.link();
    const first = await browser.newContext();
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
});
