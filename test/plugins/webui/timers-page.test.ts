// The Timers page in chromium against a real homed: timers set through the timer plugin's client method (timer/set
// over the socket) are listed with what, when and repeat; Cancel asks first, Keep it keeps it, Yes cancels it and the
// row goes (and the timer plugin no longer has it); the kernel's status shows homed's own figures; the same at phone
// width. Also the client methods' refusals over the socket. Screenshots are kept under $HOMEAGENT_SCREENS when it is set.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { callOnce } from '../../../plugins/cli/client';
import { SocketApi, TimerApi, type TimerSetParams } from '../../../protocol';
import { byName } from '../../harness/by-name';
import { PHONE, skip, startBrowserHarness, type BrowserHarness } from './browser-harness';

describe('the Timers page in chromium', { skip }, () => {
  let harness: BrowserHarness;
  const setTimer = async (params: Omit<TimerSetParams, 'session'>): Promise<string> =>
    (await callOnce(harness.live.homed.socket, TimerApi.Set, { session: 'timers-page', ...params })).timer.id;
  const listed = async (): Promise<string[]> => (await callOnce(harness.live.homed.socket, TimerApi.List, {})).timers.map((timer) => timer.message);

  before(async () => {
    harness = await startBrowserHarness();
  });
  after(async () => {
    await harness?.close();
  });

  async function openTimers(viewport?: { width: number; height: number }) {
    const guarded = await harness.signedInPage(viewport);
    await guarded.page.getByRole('button', { name: 'Timers', exact: true }).click();
    await guarded.page.getByRole('heading', { name: 'Timers', exact: true }).waitFor();
    return guarded;
  }
  const table = (page: Page): Locator => page.getByRole('table', { name: 'Timers that are set' });
  const rowOf = (page: Page, message: string): Locator =>
    table(page)
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: message, exact: true }) });
  const statusValue = (page: Page, term: string): Locator =>
    page.getByRole('definition').filter({ has: page.locator(`xpath=self::*[preceding-sibling::dt[1][normalize-space()="${term}"]]`) });

  it('refuses a malformed timer/set and an unknown id with what to change', async () => {
    const socket = harness.live.homed.socket;
    await assert.rejects(callOnce(socket, TimerApi.Set, { session: 's', message: 'x', delay: 'soon' }), /delay "soon" is not a duration/);
    await assert.rejects(callOnce(socket, TimerApi.Set, { session: 's', message: 'x' }), /give delay .* or at/);
    // By name: params without the session timer/set requires, sent on purpose to see them refused.
    await assert.rejects(callOnce(socket, byName(TimerApi.Set.method), { message: 'x', delay: '1h' }), /session/);
    await assert.rejects(callOnce(socket, TimerApi.Cancel, { id: 't-none' }), /there is no timer with id "t-none"/);
    assert.deepEqual(await listed(), []);
  });

  it('lists the timers, cancels one after asking, and shows the kernel status', async () => {
    await setTimer({ message: 'take the bread out', delay: '1h' });
    await setTimer({ message: 'water the plants', delay: '2h', repeat: '1d' });
    const { context, page, foreign, errors } = await openTimers();
    const bread = rowOf(page, 'take the bread out');
    const plants = rowOf(page, 'water the plants');
    await bread.getByText('once', { exact: true }).waitFor();
    await plants.getByText('every 1 d', { exact: true }).waitFor();
    await bread.getByText(/^in (59 min|1 h)/).waitFor();
    assert.equal(await table(page).getByRole('row').count(), 3, 'a header row and a row per timer');

    const status = await callOnce(harness.live.homed.socket, SocketApi.KernelStatus, {});
    await statusValue(page, 'PID').getByText(String(status.pid), { exact: true }).waitFor();
    await statusValue(page, 'Data folder').getByText(status.dataDir, { exact: true }).waitFor();
    await statusValue(page, 'Plugins')
      .getByText(`${status.plugins.ready} ready of ${status.plugins.enabled} enabled (${status.plugins.total} in all)`)
      .waitFor();
    await statusValue(page, 'Turns').getByText('0 running, 0 waiting').waitFor();
    await statusValue(page, 'Version').getByText(status.version, { exact: false }).waitFor();
    await harness.screenshot(page, 'timers-desktop');

    await page.getByRole('button', { name: 'Cancel the timer “take the bread out”' }).click();
    const confirm = page.getByRole('group', { name: 'Confirm cancelling “take the bread out”' });
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    await confirm.waitFor({ state: 'detached' });
    assert.deepEqual(await listed(), ['take the bread out', 'water the plants'], 'Keep it cancels nothing');

    await page.getByRole('button', { name: 'Cancel the timer “take the bread out”' }).click();
    await harness.screenshot(page, 'timers-confirm-desktop');
    await confirm.getByRole('button', { name: 'Yes, cancel it' }).click();
    await bread.waitFor({ state: 'detached' });
    await plants.waitFor();
    assert.deepEqual(await listed(), ['water the plants']);
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('works at 375 px: a card per timer, its Cancel on screen, and the empty list once it is cancelled', async () => {
    const { context, page, foreign, errors } = await openTimers(PHONE);
    const plants = rowOf(page, 'water the plants');
    await plants.waitFor();
    const cancel = page.getByRole('button', { name: 'Cancel the timer “water the plants”' });
    const box = await cancel.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= PHONE.width, `the Cancel button is on screen (${JSON.stringify(box)})`);
    const scrolls = (await page.evaluate('document.documentElement.scrollWidth')) as number;
    assert.ok(scrolls <= PHONE.width, `nothing is wider than the phone (${scrolls} px)`);
    await harness.screenshot(page, 'timers-phone');
    await cancel.click();
    await page.getByRole('button', { name: 'Yes, cancel it' }).click();
    await page.getByText('No timers are set.', { exact: false }).waitFor();
    assert.deepEqual(await listed(), []);
    await harness.screenshot(page, 'timers-empty-phone');
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
