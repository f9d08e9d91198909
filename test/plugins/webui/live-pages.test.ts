// The Knowledge and Timers pages follow events, in chromium against a real homed and the fake LLM: with the page
// open and never reloaded, a file added over the socket appears indexed, a file dropped into the knowledge folder
// appears with the reason it is not indexed, a removal takes the row away; a timer the agent sets (a scripted
// timer_set call) appears, and goes when it fires; one cancelled over the socket goes too.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { callOnce } from '../../../plugins/cli/client';
import { SocketApi, TimerApi } from '../../../protocol';
import { runWaiter } from '../../harness/waiter';
import { skip, startBrowserHarness, type BrowserHarness } from './browser-harness';

/** Set on the page's window once it is open: still there at the end means the page was never reloaded. */
const MARK = 'window.__notReloaded';

describe('the Knowledge and Timers pages follow events in chromium', { skip }, () => {
  let harness: BrowserHarness;
  let work: string;

  before(async () => {
    harness = await startBrowserHarness({ llm: true });
    // knowledge/add takes files from the allowed roots: <data>/workspace when files:roots is unset.
    work = path.join(harness.live.homed.dataDir, 'workspace');
    fs.mkdirSync(work, { recursive: true });
  });
  after(async () => {
    await harness?.close();
  });

  async function open(menu: string, heading: string): Promise<{ page: Page; close(): Promise<void>; errors: string[]; foreign: string[] }> {
    const { context, page, errors, foreign } = await harness.signedInPage();
    await page.getByRole('button', { name: menu, exact: true }).click();
    await page.getByRole('heading', { name: heading, exact: true }).waitFor();
    await page
      .getByRole('status')
      .getByText(/^Live:/)
      .waitFor();
    await page.evaluate(`${MARK} = true`);
    return { page, errors, foreign, close: () => context.close() };
  }
  const notReloaded = async (page: Page): Promise<void> => assert.equal(await page.evaluate(MARK), true, 'the page was not reloaded');

  it('shows a file added over the socket, one dropped into the folder with why it is not indexed, and a removal, as they happen', async () => {
    const { page, errors, foreign, close } = await open('Knowledge', 'Knowledge');
    const files = page.getByRole('list', { name: 'Files' });
    const source = path.join(work, 'pantry.md');
    fs.writeFileSync(source, '# Pantry\n\nThe flour is on the top shelf.\n');
    await callOnce(harness.live.homed.socket, SocketApi.KnowledgeAdd, { path: source });
    await files.getByRole('listitem', { name: 'pantry.md' }).getByText('indexed', { exact: true }).waitFor();

    const folder = path.join(harness.live.homed.dataDir, 'knowledge');
    fs.writeFileSync(path.join(folder, 'scan.pdf'), '%PDF-1.4 not really');
    const refused = files.getByRole('listitem', { name: 'scan.pdf' });
    await refused.getByText('not indexed', { exact: true }).waitFor();
    assert.match((await refused.textContent()) ?? '', /PDF files are not read/);

    await callOnce(harness.live.homed.socket, SocketApi.KnowledgeRemove, { file: 'pantry.md' });
    await files.getByRole('listitem', { name: 'pantry.md' }).waitFor({ state: 'detached' });
    await notReloaded(page);
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
    await close();
  });

  it('shows a timer the agent sets, and takes it away when it fires or is cancelled', async () => {
    const llm = harness.llm;
    assert.ok(llm);
    llm.setDefault({ text: 'Noted.' });
    const { page, errors, foreign, close } = await open('Timers', 'Timers');
    const row = (message: string) =>
      page
        .getByRole('table', { name: 'Timers that are set' })
        .getByRole('row')
        .filter({ has: page.getByRole('cell', { name: message, exact: true }) });

    llm.enqueue({ toolCalls: [{ name: 'timer_set', args: { message: 'stretch your legs', delay: '4s' } }] }, { text: 'I will remind you.' });
    const said = await runWaiter(['-data', harness.live.homed.dataDir, '--session', 'web:timers', '-say', 'remind me to stretch in 4 seconds']);
    assert.equal(said.code, 0, said.stderr);
    await row('stretch your legs').waitFor();
    await row('stretch your legs').waitFor({ state: 'detached', timeout: 20_000 });
    assert.deepEqual((await callOnce(harness.live.homed.socket, TimerApi.List, {})).timers, [], 'it fired');

    llm.enqueue({ toolCalls: [{ name: 'timer_set', args: { message: 'call the plumber', delay: '1h' } }] }, { text: 'Set.' });
    assert.equal((await runWaiter(['-data', harness.live.homed.dataDir, '--session', 'web:timers', '-say', 'plumber in an hour'])).code, 0);
    await row('call the plumber').waitFor();
    const [timer] = (await callOnce(harness.live.homed.socket, TimerApi.List, {})).timers;
    assert.ok(timer);
    await callOnce(harness.live.homed.socket, TimerApi.Cancel, { id: timer.id });
    await row('call the plumber').waitFor({ state: 'detached' });
    await page.getByText('No timers are set.', { exact: false }).waitFor();
    await notReloaded(page);
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
    await close();
  });
});
