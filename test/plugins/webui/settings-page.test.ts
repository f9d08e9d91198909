// The Settings page in chromium against a real homed: rendered from the definitions (types → inputs, ranges,
// read-only and restart notes, descriptions); a bad value shows the kernel's own error beside the setting, a good one
// is confirmed and stored, a reset goes back to the default; a change made elsewhere appears without a reload; a
// password is never shown. The same at phone width. Screenshots under $HOMEAGENT_SCREENS when set.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { HomedAnswerError, callOnce } from '../../../plugins/cli/client';
import { SocketApi, type ConfigEntry } from '../../../protocol';
import { waitFor } from '../../harness/wait';
import { PHONE, skip, startBrowserHarness, type BrowserHarness } from './browser-harness';

describe('the Settings page in chromium', { skip }, () => {
  let harness: BrowserHarness;
  const socket = (): string => harness.live.homed.socket;
  const entry = async (scope: string, key: string): Promise<ConfigEntry> => (await callOnce(socket(), SocketApi.ConfigGet, { scope, key })).entry;

  before(async () => {
    harness = await startBrowserHarness({ homed: { plugins: ['secret-keeper'] } });
  });
  after(async () => {
    await harness?.close();
  });

  async function openSettings(viewport?: { width: number; height: number }) {
    const guarded = await harness.signedInPage(viewport);
    await guarded.page.getByRole('button', { name: 'Settings', exact: true }).click();
    await guarded.page.getByRole('region', { name: 'Plugin cli' }).waitFor();
    return guarded;
  }
  /** A setting's block: the group named by its key, inside its scope's section. */
  const setting = (page: Page, scopeHeading: string, key: string): Locator =>
    page.getByRole('region', { name: scopeHeading }).getByRole('group', { name: key, exact: true });

  it('shows the kernel’s error for a bad value, confirms a good one, and resets to the default', async () => {
    const { context, page, foreign, errors } = await openSettings();
    const maxClients = setting(page, 'Plugin cli', 'max_clients');
    const input = maxClients.getByLabel('max_clients');
    assert.equal(await input.inputValue(), '64');
    await maxClients.getByText('From 1 to 4096').waitFor();
    await maxClients.getByText(/Most clients connected at once/).waitFor();

    const kernelSays = await callOnce(socket(), SocketApi.ConfigSet, { scope: 'cli', key: 'max_clients', value: '5000' }).then(
      () => assert.fail('the kernel took 5000'),
      (e: unknown) => (e instanceof HomedAnswerError ? e.message : assert.fail(String(e))),
    );
    await input.fill('5000');
    await maxClients.getByRole('button', { name: 'Save' }).click();
    const alert = maxClients.getByRole('alert');
    await alert.waitFor();
    assert.equal(await alert.textContent(), kernelSays);
    assert.equal((await entry('cli', 'max_clients')).isSet, false, 'nothing was stored');
    await harness.screenshot(page, 'settings-error-desktop');

    await input.fill('70');
    await maxClients.getByRole('button', { name: 'Save' }).click();
    await maxClients.getByRole('status').getByText('Saved.').waitFor();
    assert.equal(await alert.count(), 0, 'the error is gone');
    assert.equal((await entry('cli', 'max_clients')).value, 70);

    await maxClients.getByRole('button', { name: 'Reset to default' }).click();
    await maxClients.getByRole('status').getByText('Back to the default.').waitFor();
    assert.equal((await entry('cli', 'max_clients')).isSet, false);
    await waitValue(input, '64');
    assert.equal(await maxClients.getByRole('button', { name: 'Reset to default' }).isDisabled(), true, 'nothing left to reset');
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('picks inputs from the definitions: select, switch, duration text, password never shown, read-only and restart notes', async () => {
    await callOnce(socket(), SocketApi.ConfigSet, { scope: 'secret-keeper', key: 'api_token', value: 'hunter2-secret' });
    const { context, page } = await openSettings();
    const session = setting(page, 'Plugin webui', 'session_timeout');
    await session.getByText('Takes effect after a restart.').waitFor();

    const idle = setting(page, 'Plugin cli', 'idle_timeout');
    assert.equal(await idle.getByRole('textbox').inputValue(), (await entry('cli', 'idle_timeout')).display);
    // Its default (300000 ms stored) reads as people write it.
    await idle.getByText('Default: 5m', { exact: false }).waitFor();

    const token = setting(page, 'Plugin secret-keeper', 'api_token');
    const field = token.getByLabel('api_token');
    assert.equal(await field.getAttribute('type'), 'password');
    assert.equal(await field.inputValue(), '');
    await token.getByText(/A value is set; it is never shown/).waitFor();
    assert.equal(await page.getByText('hunter2-secret').count(), 0);
    assert.equal((await page.content()).includes('hunter2-secret'), false, 'the password is nowhere in the page');

    const dataDir = setting(page, 'homed (core)', 'core.data.dir');
    assert.equal(await dataDir.getByRole('textbox').isDisabled(), true);
    await dataDir.getByText(/No default · Read-only: start homed with -data DIR/).waitFor();
    assert.equal(await dataDir.getByRole('button', { name: 'Save' }).count(), 0);

    const switches = page.getByRole('switch');
    assert.ok((await switches.count()) > 0, 'bool settings are switches');
    await context.close();
  });

  it('shows a guarded setting read-only with the homectl command that changes it', async () => {
    const { context, page, foreign, errors } = await openSettings();
    const bind = setting(page, 'Plugin webui', 'bind');
    assert.equal(await bind.getByRole('combobox').inputValue(), 'loopback');
    assert.deepEqual(await bind.getByRole('option').allTextContents(), ['loopback', 'lan']);
    assert.equal(await bind.getByRole('combobox').isDisabled(), true);
    assert.equal(await bind.getByRole('button').count(), 0, 'no Save, no Reset');
    await bind.getByText(/^Guarded: it widens what the agent may do or reach/).waitFor();
    assert.equal(await bind.locator('code').textContent(), 'homectl config set webui:bind VALUE');
    const roots = setting(page, 'Plugin files', 'roots');
    assert.equal(await roots.locator('code').textContent(), 'homectl config set files:roots VALUE');
    assert.equal(await roots.getByRole('textbox').isDisabled(), true);
    const knowledge = setting(page, 'homed (core)', 'core.knowledge.path');
    assert.equal(await knowledge.locator('code').textContent(), 'homectl config set core.knowledge.path VALUE');
    // A setting that is not guarded keeps its Save.
    assert.equal(await setting(page, 'Plugin cli', 'max_clients').getByRole('button', { name: 'Save' }).count(), 1);
    await harness.screenshot(page, 'settings-guarded');
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('shows a change made elsewhere without a reload, and works at 375 px', async () => {
    const { context, page, foreign, errors } = await openSettings(PHONE);
    const maxClients = setting(page, 'Plugin cli', 'max_clients');
    const input = maxClients.getByLabel('max_clients');
    await callOnce(socket(), SocketApi.ConfigSet, { scope: 'cli', key: 'max_clients', value: '99' });
    await waitValue(input, '99');
    await input.fill('100');
    const save = maxClients.getByRole('button', { name: 'Save' });
    const box = await save.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= PHONE.width, `Save is on screen (${JSON.stringify(box)})`);
    await save.click();
    await maxClients.getByRole('status').getByText('Saved.').waitFor();
    assert.equal((await entry('cli', 'max_clients')).value, 100);
    const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
    assert.ok(width <= PHONE.width, `nothing is wider than the phone (${width} px)`);
    await harness.screenshot(page, 'settings-phone');
    await callOnce(socket(), SocketApi.ConfigUnset, { scope: 'cli', key: 'max_clients' });
    await waitValue(input, '64');
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
    await context.close();
  });
});

/** Waits until the input shows `value` (set by a pushed change, not by the test). */
async function waitValue(input: Locator, value: string): Promise<void> {
  // Read from here: waitForFunction's in-page polling compiles its predicate, which the page's CSP (no eval) may refuse.
  await waitFor(async () => (await input.inputValue()) === value, { what: `the input to show ${value}`, timeoutMs: 10_000 });
}
