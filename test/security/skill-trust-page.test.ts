// The page's upload of a hostile skill package, in chromium against a real homed: the install dialog shows the
// trust report (every flag with its file and line) and how many things it flagged, before the person can install.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { makeTempDir } from '../harness/homed';
import { skip, startBrowserHarness, type BrowserHarness } from '../plugins/webui/browser-harness';
import { EXPECTED, assertAllFlagged, writeHostilePackage } from './hostile-skill';

describe('a hostile skill uploaded on the page shows its trust report in the install dialog', { skip }, () => {
  let harness: BrowserHarness;
  let work: string;
  let hmap: string;

  before(async () => {
    work = makeTempDir('skill-trust-page-');
    hmap = await writeHostilePackage(work);
    harness = await startBrowserHarness();
  });
  after(async () => {
    await harness?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('shows the report with every flag before Install', async () => {
    const { page, errors } = await harness.signedInPage();
    await page.getByRole('button', { name: 'Plugins', exact: true }).click();
    await page.getByLabel('Package file').setInputFiles(hmap);
    await page.getByRole('button', { name: 'Check package' }).click();
    const dialog = page.getByRole('dialog', { name: 'Install fastnotes 1.0.0?' });
    await dialog.waitFor();
    const report = dialog.getByRole('region', { name: /Trust report of this skill/ });
    assertAllFlagged((await report.locator('pre').textContent()) ?? '', 'the install dialog');
    const count = /^(\d+) flagged/.exec((await report.locator('.warning').textContent()) ?? '');
    assert.ok(count && Number(count[1]) >= EXPECTED.length, `the dialog says how many were flagged: ${count?.[0]}`);
    await harness.screenshot(page, 'plugins-skill-trust-report');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.deepEqual(errors, []);
  });
});
