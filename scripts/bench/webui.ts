// The web page: its weight (gzip, JS + CSS) beside the server's static sign-in page, navigation to a chat box one can
// type in beside navigation to that static page, the webui plugin's memory idle and with 5 pages connected, and the
// CPU homed and the webui plugin use over 20 s while those pages sit idle (the page asks nothing on a clock: ≈ 0).
// A real homed with the webui plugin on a random port and Debian's chromium, through the browser tests' harness.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { SocketMethods, type PluginInfo } from '../../protocol';
import { requestOnce } from '../../plugins/cli/client';
import { CHROMIUM, startBrowserHarness, type BrowserHarness, type GuardedPage } from '../../test/plugins/webui/browser-harness';
import { readCpuUs, readRss } from './procfs';
import { REPO_ROOT } from './paths';
import { makeRow, type BenchRow } from './results';
import { median, msSince, sleep } from './stats';

const SECTION = 'webui';
const ASSETS = path.join(REPO_ROOT, 'dist', 'plugins', 'webui', 'assets');

/** Navigations per figure, connected pages, and the idle window the CPU is read over. */
export const WEBUI_PLAN = { navigations: 10, pages: 5, idleMs: 20_000, settleMs: 2000 };

export async function benchWebui(plan = WEBUI_PLAN): Promise<BenchRow[]> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium) to bench the web page`);
  const harness = await startBrowserHarness();
  try {
    // Memory first, before any navigation has passed through the plugin.
    const memoryAndCpu = await idle(harness, plan);
    return [...(await weight(harness)), ...(await navigation(harness, plan)), ...memoryAndCpu];
  } finally {
    await harness.close();
  }
}

/** gzip -9 bytes of the signed-in page (HTML + app.js + app.css) beside the static sign-in page (HTML + login.js + app.css), in kB. */
async function weight(harness: BrowserHarness): Promise<BenchRow[]> {
  const manifest = JSON.parse(fs.readFileSync(path.join(ASSETS, 'manifest.json'), 'utf8')) as Record<string, string>;
  const gz = (body: Buffer | string): number => gzipSync(body, { level: 9 }).length / 1000;
  const file = (entry: string): Buffer => fs.readFileSync(path.join(ASSETS, manifest[entry] as string));
  const signIn = await (await fetch(`${harness.live.origin}/`)).text();
  const js = gz(file('app.js'));
  const css = gz(file('app.css'));
  const staticPage = gz(signIn) + gz(file('login.js')) + css;
  return [
    makeRow(SECTION, 'page weight gzip, app.js + app.css', js + css, 'kB', 'static sign-in page', staticPage, 1),
    makeRow(SECTION, '  of which app.js', js, 'kB', 'static sign-in page', staticPage, 1),
  ];
}

/** Median time from goto to a chat box that takes typing on a connected page, beside goto to the static page's load. */
async function navigation(harness: BrowserHarness, plan: typeof WEBUI_PLAN): Promise<BenchRow[]> {
  const signedIn = await harness.signedInPage();
  const signedOut = await harness.guardedPage();
  const toChat: number[] = [];
  const toStatic: number[] = [];
  try {
    for (let round = 0; round < plan.navigations; round++) {
      toStatic.push(await timed(signedOut, async (page) => {
        await page.goto(`${harness.live.origin}/`, { waitUntil: 'load' });
      }));
      toChat.push(await timed(signedIn, async (page) => {
        await page.goto(`${harness.live.origin}/#/chat`, { waitUntil: 'commit' });
        await page.getByRole('status', { name: 'Connection' }).getByText('Connected', { exact: true }).waitFor();
        await page.getByLabel('Message').and(page.locator(':enabled')).waitFor();
      }));
    }
  } finally {
    await signedIn.context.close();
    await signedOut.context.close();
  }
  return [makeRow(SECTION, 'navigation to an interactive chat box (warm cache)', median(toChat), 'ms', 'static sign-in page load', median(toStatic), toChat.length)];
}

/** A fresh page of `guarded`'s context, timed through `run`, then closed. */
async function timed(guarded: GuardedPage, run: (page: Page) => Promise<void>): Promise<number> {
  const page = await guarded.context.newPage();
  try {
    const start = performance.now();
    await run(page);
    return msSince(start);
  } finally {
    await page.close();
  }
}

/** The webui plugin's RSS with no page and with `plan.pages` connected; CPU of homed + webui over the idle window. */
async function idle(harness: BrowserHarness, plan: typeof WEBUI_PLAN): Promise<BenchRow[]> {
  const info = async (name: string): Promise<PluginInfo> => (await requestOnce<{ plugin: PluginInfo }>(harness.live.homed.socket, SocketMethods.PluginsInfo, { name })).plugin;
  const webuiPid = (await info('webui')).pid;
  const timerPid = (await info('timer')).pid;
  if (webuiPid === null || timerPid === null) throw new Error('the webui and timer plugins must be running to measure them');
  const pids = [harness.live.homed.pid, webuiPid];
  const cpuPercent = async (): Promise<number> => {
    const before = pids.map(readCpuUs);
    const start = performance.now();
    await sleep(plan.idleMs);
    const wallUs = msSince(start) * 1000;
    return (pids.map(readCpuUs).reduce((sum, us, i) => sum + us - (before[i] as number), 0) / wallUs) * 100;
  };

  await sleep(plan.settleMs);
  const idleRss = readRss(webuiPid).rssMb;
  const timerRss = readRss(timerPid).rssMb;
  const cpuNoPages = await cpuPercent();
  const pages: GuardedPage[] = [];
  try {
    for (let i = 0; i < plan.pages; i++) pages.push(await harness.signedInPage());
    await Promise.all(pages.map(({ page }) => page.getByLabel('Message').waitFor()));
    await sleep(plan.settleMs);
    const busyRss = readRss(webuiPid).rssMb;
    const cpuPages = await cpuPercent();
    return [
      makeRow(SECTION, 'webui plugin RSS, idle', idleRss, 'MB', 'timer plugin host', timerRss, 1, { kind: 'value-at-most', max: 60 }),
      makeRow(SECTION, `webui plugin RSS, ${plan.pages} pages connected`, busyRss, 'MB', 'webui idle', idleRss, 1),
      makeRow(SECTION, `CPU of homed + webui over ${plan.idleMs / 1000} s, ${plan.pages} idle pages`, cpuPages, '%', 'no page open', cpuNoPages, 1),
    ];
  } finally {
    for (const { context } of pages) await context.close();
  }
}
