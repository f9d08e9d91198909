// The page in a real browser (Debian's chromium driven by playwright-core) against a real homed: the one-time
// link signs in, the shell loads from the plugin alone and shows homed's version; a browser without the cookie
// sees only the sign-in page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { requestOnce } from '../../../plugins/cli/client';
import { SocketMethods, type KernelStatus } from '../../../protocol';
import { skip, startBrowserHarness, type BrowserHarness } from './browser-harness';

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
    const { version } = await requestOnce<KernelStatus>(live.homed.socket, SocketMethods.KernelStatus);
    await page.getByLabel('Kernel status').getByText(`homed ${version}`).waitFor({ timeout: 20_000 });
    assert.equal(await page.getByRole('status', { name: 'Connection' }).textContent(), 'Connected');
    assert.equal(await page.getByRole('button', { name: 'Chat', exact: true }).count(), 1);
    for (const name of ['Plugins', 'Settings', 'Memory', 'Knowledge', 'Timers']) assert.equal(await page.getByRole('button', { name, exact: true }).count(), 1, name);
    assert.equal(new URL(page.url()).hash, '', 'the secret left the address bar');
    const cookies = await context.cookies();
    assert.deepEqual(cookies.map((c) => [c.name, c.httpOnly, c.sameSite]), [['homeagent_session', true, 'Strict']]);
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
});
