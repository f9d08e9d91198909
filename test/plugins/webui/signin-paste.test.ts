// A sign-in link pasted into the open signed-out tab that asks for it: only the fragment changes, so the browser does
// not load the page again; the sign-in page hears the fragment arrive and signs in, with no reload by the person.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { skip, startBrowserHarness, type BrowserHarness } from './browser-harness';

describe('a sign-in link pasted into the signed-out tab in chromium', { skip }, () => {
  let harness: BrowserHarness;
  before(async () => {
    harness = await startBrowserHarness();
  });
  after(async () => {
    await harness?.close();
  });

  it('signs in when only the fragment changes', async () => {
    const { context, page, foreign, errors } = await harness.guardedPage();
    await page.goto(`${harness.live.origin}/`);
    await page.getByText('This browser is not signed in.').waitFor({ timeout: 10_000 });
    const fragment = new URL(harness.live.link()).hash;
    // What pasting `http://127.0.0.1:PORT/#login=…` over `http://127.0.0.1:PORT/` does: a same-document navigation.
    await page.evaluate(`location.hash = ${JSON.stringify(fragment)}`);
    await page.getByRole('status', { name: 'Connection' }).getByText('Connected', { exact: true }).waitFor({ timeout: 20_000 });
    assert.equal(new URL(page.url()).hash.includes('login='), false, 'the secret left the address bar');
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
