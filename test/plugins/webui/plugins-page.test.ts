// The Plugins page in chromium against a real homed: a row per plugin with its live state and pid; a restart made
// by the page, and one made by homectl elsewhere, show the new pid without a reload (pushed by events/subscribe);
// stop and start; the opened row shows the walls and the log tail; the same at phone width. Screenshots are saved
// under $HOMEAGENT_SCREENS when set.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { callOnce } from '../../../plugins/cli/client';
import { SocketApi, type PluginInfo } from '../../../protocol';
import { waitFor } from '../../harness/homed';
import { PHONE, skip, startBrowserHarness, type BrowserHarness } from './browser-harness';

const PLUGIN = 'good';

describe('the Plugins page in chromium', { skip }, () => {
  let harness: BrowserHarness;
  const info = async (): Promise<PluginInfo> => (await callOnce(harness.live.homed.socket, SocketApi.PluginsInfo, { name: PLUGIN })).plugin;
  const readyInfo = (): Promise<PluginInfo> =>
    waitFor(
      async () => {
        const i = await info();
        return i.state === 'ready' && i;
      },
      { what: `${PLUGIN} to be ready` },
    );

  before(async () => {
    harness = await startBrowserHarness({ homed: { plugins: [PLUGIN] } });
    await readyInfo();
  });
  after(async () => {
    await harness?.close();
  });

  /** The row whose name cell is the plugin's name. */
  const rowOf = (page: Page, name: string): Locator => page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
  const pidCell = (row: Locator): Locator => row.getByRole('cell').nth(2);
  const stateCell = (row: Locator): Locator => row.getByRole('cell').nth(1);

  /** Waits for a ready process other than `pid`, then for the row to show its pid. */
  async function restartedFrom(pid: number | null, row: Locator): Promise<PluginInfo> {
    const next = await waitFor(
      async () => {
        const i = await info();
        return i.state === 'ready' && i.pid !== pid && i;
      },
      { what: 'a new process' },
    );
    await pidCell(row).getByText(String(next.pid), { exact: true }).waitFor();
    return next;
  }

  async function openPlugins(viewport?: { width: number; height: number }) {
    const guarded = await harness.signedInPage(viewport);
    await guarded.page.getByRole('button', { name: 'Plugins', exact: true }).click();
    await guarded.page.getByText('Live: changes appear as they happen.').waitFor();
    return guarded;
  }

  it('restarts a plugin from its row and from homectl, and the row shows each new pid as it happens', async () => {
    const { context, page, foreign, errors } = await openPlugins();
    const row = rowOf(page, PLUGIN);
    const first = await readyInfo();
    await pidCell(row).getByText(String(first.pid), { exact: true }).waitFor();
    assert.match((await stateCell(row).textContent()) ?? '', /^ready/);
    for (const name of ['Restart', 'Stop', 'Start']) assert.equal(await row.getByRole('button', { name, exact: true }).count(), 1, name);
    assert.equal(await rowOf(page, 'cli').count(), 1, 'the built-in plugins have rows too');

    await row.getByRole('button', { name: 'Restart', exact: true }).click();
    const second = await restartedFrom(first.pid, row);
    await harness.screenshot(page, 'plugins-desktop');

    // A restart the page did not ask for: only a pushed event can tell it.
    await callOnce(harness.live.homed.socket, SocketApi.PluginsControl, { name: PLUGIN, action: 'restart' });
    const third = await readyInfo();
    assert.notEqual(third.pid, second.pid);
    await pidCell(row).getByText(String(third.pid), { exact: true }).waitFor();
    await stateCell(row).getByText('ready').waitFor();
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('stops and starts a plugin, and shows its walls and its log tail when the row is opened', async () => {
    const { context, page, errors } = await openPlugins();
    const row = rowOf(page, PLUGIN);
    await row.getByRole('button', { name: 'Stop', exact: true }).click();
    await stateCell(row).getByText('stopped').waitFor();
    await pidCell(row).getByText('—').waitFor();
    assert.equal((await info()).state, 'stopped');
    assert.equal(await row.getByRole('button', { name: 'Stop', exact: true }).isDisabled(), true, 'nothing to stop');
    await row.getByRole('button', { name: 'Start', exact: true }).click();
    const started = await readyInfo();
    await pidCell(row).getByText(String(started.pid), { exact: true }).waitFor();

    await row.getByRole('button', { name: 'Details' }).click();
    const details = page.getByRole('region', { name: `Details of ${PLUGIN}` });
    const walls = details.getByRole('list', { name: 'Walls around it' });
    await walls.waitFor();
    for (const wall of started.sandbox) await walls.getByText(wall.wall, { exact: true }).waitFor();
    assert.ok(started.sandbox.length > 0, 'a third-party plugin runs inside walls');
    const logs = details.getByLabel('Recent log lines');
    await logs
      .getByText(/stopped: /)
      .first()
      .waitFor();
    await harness.screenshot(page, 'plugins-details-desktop');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('works at 375 px: one card per plugin with its buttons, and a restart shows the new pid', async () => {
    const { context, page, foreign, errors } = await openPlugins(PHONE);
    const row = rowOf(page, PLUGIN);
    const before = await readyInfo();
    await pidCell(row).getByText(String(before.pid), { exact: true }).waitFor();
    const restart = row.getByRole('button', { name: 'Restart', exact: true });
    const box = await restart.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= PHONE.width, `the Restart button is on screen (${JSON.stringify(box)})`);
    const scrolls = (await page.evaluate('document.documentElement.scrollWidth')) as number;
    assert.ok(scrolls <= PHONE.width, `nothing is wider than the phone (${scrolls} px)`);
    await restart.click();
    await restartedFrom(before.pid, row);
    await harness.screenshot(page, 'plugins-phone');
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
