// Packages on the Plugins page, in chromium against a real homed: a .hmap packed by the test is uploaded, the dialog
// shows what the kernel found (name, version, author, permissions, SHA-256, new or an upgrade), Install puts it in
// the table as ready, Cancel of an upgrade changes nothing, Remove (after a confirmation) takes it out; a hostile
// package shows the kernel's refusal. The upload route refuses by Content-Length past the installer's cap, a
// browser not signed in, and another browser's upload. Every outcome leaves the uploads folder empty.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { callOnce } from '../../../plugins/cli/client';
import { SocketApi, WEBUI_PACKAGES_PATH, type PluginStatus } from '../../../protocol';
import { packPlugin } from '../../../scripts/pack/pack';
import { makeTempDir } from '../../harness/homed';
import { waitFor } from '../../harness/wait';
import { validFiles, zipBuffer } from '../../kernel/packages/helpers';
import { buildZip, parseZip, rename } from '../../kernel/packages/raw-zip';
import { FIXTURE_PACKAGES } from '../pluginmgr/helpers';
import { PHONE, skip, startBrowserHarness, type BrowserHarness } from './browser-harness';
import { postAnnounced } from './post-announced';

describe('packages on the Plugins page in chromium', { skip }, () => {
  let harness: BrowserHarness;
  let work: string;
  let v1: string;
  let v2: string;
  const plugins = async (): Promise<PluginStatus[]> => (await callOnce(harness.live.homed.socket, SocketApi.PluginsList, {})).plugins;
  const uploads = (): string[] => {
    const dir = path.join(harness.live.homed.dataDir, 'plugin-data', 'webui', 'packages');
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  };

  before(async () => {
    work = makeTempDir('webui-hmap-');
    v1 = (await packPlugin(path.join(FIXTURE_PACKAGES, 'weather-js-v1'), work)).file;
    v2 = (await packPlugin(path.join(FIXTURE_PACKAGES, 'weather-js-v2'), work)).file;
    harness = await startBrowserHarness();
  });
  after(async () => {
    await harness?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  async function openPlugins(viewport?: { width: number; height: number }) {
    const guarded = await harness.signedInPage(viewport);
    await guarded.page.getByRole('button', { name: 'Plugins', exact: true }).click();
    await guarded.page.getByRole('heading', { name: 'Install or upgrade a package' }).waitFor();
    return guarded;
  }
  const upload = async (page: Page, file: string): Promise<void> => {
    await page.getByLabel('Package file').setInputFiles(file);
    await page.getByRole('button', { name: 'Check package' }).click();
  };
  const fact = (page: Page, term: string) =>
    page
      .getByRole('dialog')
      .locator('.fact')
      .filter({ has: page.getByRole('term').getByText(term, { exact: true }) })
      .getByRole('definition');
  const row = (page: Page, name: string) =>
    page
      .getByRole('table', { name: 'Plugins and their processes' })
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name, exact: true }) });

  it('uploads a package, shows what it is, installs it, lists it ready; an upgrade cancelled changes nothing; Remove takes it out', async () => {
    const { context, page, foreign, errors } = await openPlugins();
    await upload(page, v1);
    const dialog = page.getByRole('dialog', { name: 'Install weather 1.0.0?' });
    await dialog.waitFor();
    assert.equal(await fact(page, 'Version').textContent(), '1.0.0 (new plugin)');
    assert.equal(await fact(page, 'Author').textContent(), 'HomeAgent tests');
    assert.equal(await fact(page, 'Permissions').textContent(), 'tools');
    assert.equal(await fact(page, 'SHA-256').textContent(), createHash('sha256').update(fs.readFileSync(v1)).digest('hex'));
    assert.equal(uploads().length, 1, 'the upload waits in the webui data folder');
    await harness.screenshot(page, 'plugins-package-dialog-desktop');
    await dialog.getByRole('button', { name: 'Install', exact: true }).click();
    await page
      .getByRole('status')
      .getByText(/^Installed weather 1\.0\.0: now /)
      .waitFor();
    await row(page, 'weather').locator('.badge.ready').waitFor({ timeout: 20_000 });
    assert.equal((await plugins()).find((p) => p.name === 'weather')?.version, '1.0.0');
    assert.deepEqual(uploads(), [], 'the installed upload is deleted');

    await upload(page, v2);
    const upgrade = page.getByRole('dialog', { name: 'Upgrade weather to 2.0.0?' });
    await upgrade.waitFor();
    assert.equal(await fact(page, 'Version').textContent(), '2.0.0 (upgrade from 1.0.0)');
    await upgrade.getByRole('button', { name: 'Cancel' }).click();
    await upgrade.waitFor({ state: 'detached' });
    await waitEmpty(uploads);
    assert.equal((await plugins()).find((p) => p.name === 'weather')?.version, '1.0.0', 'Cancel installs nothing');

    await row(page, 'weather').getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('group', { name: 'Remove weather?' }).getByRole('button', { name: 'Yes, remove it' }).click();
    await row(page, 'weather').waitFor({ state: 'detached' });
    assert.equal(
      (await plugins()).some((p) => p.name === 'weather'),
      false,
    );
    assert.equal(await row(page, 'cli').getByRole('button', { name: 'Remove' }).count(), 0, 'a built-in has no Remove');
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('shows the kernel’s refusal of a hostile package and keeps nothing; the dialog fits a phone', async () => {
    const { context, page, foreign } = await openPlugins(PHONE);
    const zip = parseZip(await zipBuffer(validFiles('evil', '1.0.0')));
    const last = zip.entries[2];
    assert.ok(last);
    rename(last, '../evil.mjs');
    const hostile = path.join(work, 'evil-1.0.0.hmap');
    fs.writeFileSync(hostile, buildZip(zip));
    await upload(page, hostile);
    await page
      .getByRole('alert')
      .getByText(/^evil-1\.0\.0\.hmap was refused: entry "\.\.\/evil\.mjs" of evil-1\.0\.0\.hmap is refused: .*rule path\.traversal/)
      .waitFor();
    assert.deepEqual(uploads(), []);
    assert.equal(
      (await plugins()).some((p) => p.name === 'evil'),
      false,
    );

    await upload(page, v1);
    const dialog = page.getByRole('dialog', { name: 'Install weather 1.0.0?' });
    await dialog.waitFor();
    const box = await dialog.getByRole('button', { name: 'Install', exact: true }).boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= PHONE.width, `Install is on screen (${JSON.stringify(box)})`);
    await harness.screenshot(page, 'plugins-package-dialog-phone');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await waitEmpty(uploads);
    assert.deepEqual(foreign, []);
    await context.close();
  });

  it('refuses by Content-Length past the installer’s cap, a browser not signed in, and another browser’s upload', async () => {
    const url = `${harness.live.origin}${WEBUI_PACKAGES_PATH}?name=big.hmap`;
    const headers = { 'content-type': 'application/octet-stream', origin: harness.live.origin };
    assert.equal((await fetch(url, { method: 'POST', headers, body: 'x' })).status, 401);
    const { context } = await openPlugins();
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    await callOnce(harness.live.homed.socket, SocketApi.ConfigSet, { key: 'core.packages.max_archive_mb', value: 1 });
    const big = await postAnnounced(url, { ...headers, cookie }, 1024 * 1024 + 1);
    assert.equal(big.status, 413);
    assert.match((JSON.parse(big.body) as { error: string }).error, /larger than 1 MiB, the installer's limit.*core\.packages\.max_archive_mb/);
    await callOnce(harness.live.homed.socket, SocketApi.ConfigUnset, { key: 'core.packages.max_archive_mb' });

    const shown = await fetch(url, { method: 'POST', headers: { ...headers, cookie }, body: fs.readFileSync(v1) });
    assert.equal(shown.status, 200);
    const { id } = (await shown.json()) as { id: string };
    const other = await harness.signedInPage();
    const otherCookie = (await other.context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const stolen = await fetch(`${harness.live.origin}${WEBUI_PACKAGES_PATH}/${id}/install`, {
      method: 'POST',
      headers: { origin: harness.live.origin, cookie: otherCookie },
    });
    assert.equal(stolen.status, 404);
    assert.equal(
      (await plugins()).some((p) => p.name === 'weather'),
      false,
    );
    const dropped = await fetch(`${harness.live.origin}${WEBUI_PACKAGES_PATH}/${id}`, { method: 'DELETE', headers: { origin: harness.live.origin, cookie } });
    assert.equal(dropped.status, 204);
    assert.deepEqual(uploads(), []);
    await other.context.close();
    await context.close();
  });
});

/** The server deletes a cancelled upload after answering the page: wait for the folder to empty. */
async function waitEmpty(list: () => string[]): Promise<void> {
  await waitFor(() => list().length === 0, { what: 'the uploads folder to be empty', timeoutMs: 10_000 });
}
