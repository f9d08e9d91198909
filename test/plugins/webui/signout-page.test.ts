// A signed-in page in chromium when its sign-in is revoked (homectl webui revoke --all): its connection is closed at
// once and the page shows its sign-in, instead of reconnecting forever against a refused cookie.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runHomectl } from '../../harness/homed';
import { skip, startBrowserHarness, type BrowserHarness } from './browser-harness';

describe('a revoked sign-in in chromium', { skip }, () => {
  let harness: BrowserHarness;
  before(async () => {
    harness = await startBrowserHarness();
  });
  after(async () => {
    await harness?.close();
  });

  it('homectl webui revoke --all takes the open page back to its sign-in', async () => {
    const { context, page, foreign, errors } = await harness.signedInPage();
    const revoked = await runHomectl(['webui', 'revoke', '--all'], { socket: harness.live.homed.socket });
    assert.equal(revoked.code, 0, revoked.stderr);
    await page.getByText('homectl webui open', { exact: true }).waitFor({ timeout: 10_000 });
    assert.equal(await page.getByRole('status', { name: 'Connection' }).count(), 0, 'the app shell is gone');
    assert.deepEqual(foreign, []);
    assert.deepEqual(
      errors.filter((e) => !/WebSocket|401/.test(e)),
      [],
    );
    await context.close();
  });
});
