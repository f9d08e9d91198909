// The web page: its weight (gzip, JS + CSS) beside the server's static sign-in page, navigation to a chat box one can
// type in beside navigation to that static page, the webui plugin's memory idle and with 5 pages connected, the
// CPU homed and the webui plugin use over 20 s while those pages sit idle (the page asks nothing on a clock: ≈ 0),
// the time to the first answer token in the page beside a socket client and `waiter -say` on the same fake model,
// and the time from pressing Stop to the provider's connection closing beside a chat/interrupt sent on the socket.
// A real homed with the webui plugin on a random port, its model the fake LLM, and Debian's chromium, through the
// browser tests' harness.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { SocketApi, type ChatStreamItem, type PluginInfo } from '../../protocol';
import { HomedClient, callOnce } from '../../plugins/cli/client';
import type { FakeLlm } from '../../test/fake-llm/server';
import { CHROMIUM, startBrowserHarness, type BrowserHarness, type GuardedPage } from '../../test/plugins/webui/browser-harness';
import { readCpuUs, readRss } from './procfs';
import { REPO_ROOT } from './paths';
import { makeRow, type BenchRow } from './results';
import { median, msSince, quantile, sleep, withDeadline } from './stats';

const SECTION = 'webui';
const ASSETS = path.join(REPO_ROOT, 'dist', 'plugins', 'webui', 'assets');
const WAITER = path.join(REPO_ROOT, 'dist', 'plugins', 'cli', 'waiter.js');
/** Longest any one timed turn may take before the section gives up. */
const TURN_DEADLINE_MS = 30_000;

/** Navigations per figure, connected pages, and the idle window the CPU is read over. */
export const WEBUI_PLAN = { navigations: 10, pages: 5, idleMs: 20_000, settleMs: 2000, idleSettleMs: 25_000, firstTokens: 10, stops: 20 };

export async function benchWebui(plan = WEBUI_PLAN): Promise<BenchRow[]> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium) to bench the web page`);
  const harness = await startBrowserHarness({ llm: true });
  try {
    // Memory first, before any navigation has passed through the plugin.
    const memoryAndCpu = await idle(harness, plan);
    return [...(await weight(harness)), ...(await navigation(harness, plan)), ...memoryAndCpu, ...(await chat(harness, plan))];
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
      toStatic.push(
        await timed(signedOut, async (page) => {
          await page.goto(`${harness.live.origin}/`, { waitUntil: 'load' });
        }),
      );
      toChat.push(
        await timed(signedIn, async (page) => {
          await page.goto(`${harness.live.origin}/#/chat`, { waitUntil: 'commit' });
          await page.getByRole('status', { name: 'Connection' }).getByText('Connected', { exact: true }).waitFor();
          await page.getByLabel('Message').and(page.locator(':enabled')).waitFor();
        }),
      );
    }
  } finally {
    await signedIn.context.close();
    await signedOut.context.close();
  }
  return [
    makeRow(SECTION, 'navigation to an interactive chat box (warm cache)', median(toChat), 'ms', 'static sign-in page load', median(toStatic), toChat.length),
  ];
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
  const info = async (name: string): Promise<PluginInfo> => (await callOnce(harness.live.homed.socket, SocketApi.PluginsInfo, { name })).plugin;
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

  // Idle means idle for a while: a process just started holds its start-up garbage until V8's memory reducer runs,
  // some 15 s after start-up here (69 MB before, 58 MB after, when this was written).
  const startupRss = readRss(webuiPid).rssMb;
  await sleep(plan.idleSettleMs);
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
      makeRow(SECTION, `webui plugin RSS, idle ${plan.idleSettleMs / 1000} s`, idleRss, 'MB', 'timer plugin host', timerRss, 1, {
        kind: 'value-at-most',
        max: 60,
      }),
      makeRow(SECTION, 'webui plugin RSS, just started', startupRss, 'MB', 'idle', idleRss, 1),
      makeRow(SECTION, `webui plugin RSS, ${plan.pages} pages connected`, busyRss, 'MB', 'webui idle', idleRss, 1),
      makeRow(SECTION, `CPU of homed + webui over ${plan.idleMs / 1000} s, ${plan.pages} idle pages`, cpuPages, '%', 'no page open', cpuNoPages, 1),
    ];
  } finally {
    for (const { context } of pages) await context.close();
  }
}

/** The time-to-first-token and Stop figures, on one signed-in Chat page and one socket connection. */
async function chat(harness: BrowserHarness, plan: typeof WEBUI_PLAN): Promise<BenchRow[]> {
  const llm = harness.llm ?? fail('the harness was started without a fake LLM');
  const tab = await harness.signedInPage();
  const client = await HomedClient.connect(harness.live.homed.socket);
  try {
    const page = tab.page;
    await page.getByLabel('Message').and(page.locator(':enabled')).waitFor();
    const first = await firstTokens(harness, llm, page, client, plan.firstTokens);
    const stop = await stops(llm, page, client, plan.stops);
    if (tab.errors.length > 0) throw new Error(`the Chat page logged errors: ${tab.errors.join('; ')}`);
    return [...first, ...stop];
  } finally {
    client.close();
    await tab.context.close();
  }
}

function fail(what: string): never {
  throw new Error(what);
}

/**
 * Run in the page before Send is clicked: `window.benchShown` resolves with the milliseconds from the next click event
 * to the last assistant message holding `marker`, both read with the page's performance.now().
 */
function watchFirstToken(marker: string): string {
  return `void (window.benchShown = new Promise((resolve) => {
    let clickedAt = Number.NaN;
    document.addEventListener('click', () => { clickedAt = performance.now(); }, { capture: true, once: true });
    const observer = new MutationObserver(() => {
      const answers = document.querySelectorAll('.message.assistant');
      if (!answers[answers.length - 1]?.textContent?.includes(${JSON.stringify(marker)})) return;
      observer.disconnect();
      resolve(performance.now() - clickedAt);
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  }))`;
}

/** Run in the page before Stop is clicked: `window.benchStopAt` becomes the next click event's wall-clock milliseconds. */
const WATCH_STOP_CLICK = `document.addEventListener('click', () => { window.benchStopAt = performance.timeOrigin + performance.now(); }, { capture: true, once: true })`;

/** An answer whose first token is `marker`, quick to finish. */
const quickAnswer = (marker: string): { chunks: string[]; tokenDelayMs: number } => ({
  chunks: [`${marker} `, 'and ', 'a ', 'few ', 'more ', 'words'],
  tokenDelayMs: 5,
});

/**
 * Median time to the first answer token: on the page from the Send button's click event to the DOM holding the
 * marker word (both read in the page); on a connected socket client from writing chat/say to the first delta; and
 * for `waiter -say` from spawning the process to the first byte on its stdout (node's start-up included).
 */
async function firstTokens(harness: BrowserHarness, llm: FakeLlm, page: Page, client: HomedClient, rounds: number): Promise<BenchRow[]> {
  const inPage: number[] = [];
  const onSocket: number[] = [];
  const inWaiter: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const marker = `Tok${String(round).padStart(3, '0')}q`;
    llm.enqueue(quickAnswer(marker));
    await page.getByLabel('Message').fill(`first token ${round}`);
    await page.evaluate(watchFirstToken(marker));
    await page.getByRole('button', { name: 'Send' }).click();
    inPage.push(await withDeadline(page.evaluate('window.benchShown') as Promise<number>, TURN_DEADLINE_MS, 'the first token on the page'));
    await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: TURN_DEADLINE_MS });

    llm.enqueue(quickAnswer(marker));
    let firstAt = Number.NaN;
    const start = performance.now();
    await withDeadline(
      client.call(
        SocketApi.ChatSay,
        { session: 'bench-socket', text: `first token ${round}` },
        {
          onStream: (item) => {
            if ((item as ChatStreamItem).kind === 'delta' && Number.isNaN(firstAt)) firstAt = msSince(start);
          },
        },
      ),
      TURN_DEADLINE_MS,
      'a chat/say turn',
    );
    onSocket.push(firstAt);

    llm.enqueue(quickAnswer(marker));
    inWaiter.push(await waiterFirstByte(harness.live.homed.socket, `first token ${round}`));
  }
  if ([...inPage, ...onSocket, ...inWaiter].some(Number.isNaN)) throw new Error('a turn ended without an answer token');
  const target = { kind: 'ratio-at-most', max: 1.2 } as const;
  return [
    makeRow(
      SECTION,
      'first answer token shown in the page (Send click → DOM)',
      median(inPage),
      'ms',
      'socket client chat/say → first delta',
      median(onSocket),
      rounds,
      target,
    ),
    makeRow(
      SECTION,
      'first answer token shown in the page (Send click → DOM)',
      median(inPage),
      'ms',
      'waiter -say spawn → first stdout byte',
      median(inWaiter),
      rounds,
      target,
    ),
  ];
}

/** Milliseconds from spawning `waiter -say text` to its first stdout byte; waits for it to exit 0. */
async function waiterFirstByte(socket: string, text: string): Promise<number> {
  const start = performance.now();
  const child = spawn(process.execPath, [WAITER, '--socket', socket, '--session', 'bench-waiter', '-say', text], { stdio: ['ignore', 'pipe', 'pipe'] });
  let firstAt = Number.NaN;
  let stderr = '';
  child.stdout.on('data', () => {
    if (Number.isNaN(firstAt)) firstAt = msSince(start);
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await withDeadline(
    new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', resolve);
    }),
    TURN_DEADLINE_MS,
    'waiter -say',
  ).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  if (code !== 0) throw new Error(`waiter -say exited with ${code}: ${stderr.trim()}`);
  return firstAt;
}

/**
 * p50 and p99 from pressing Stop on a stalled answer to the fake LLM seeing its client close the connection: the click
 * is read in the page (its click event) and the close in this process, both as wall-clock milliseconds
 * (timeOrigin + now). Beside it, a chat/interrupt notification written on the socket to the same close.
 */
async function stops(llm: FakeLlm, page: Page, client: HomedClient, rounds: number): Promise<BenchRow[]> {
  const fromPage: number[] = [];
  const fromSocket: number[] = [];
  const stalled = (): { chunks: string[]; stallAfterChunks: number } => ({ chunks: ['Partial ', 'answer ', 'never'], stallAfterChunks: 3 });
  const closedAtWall = async (asked: number): Promise<number> => {
    const request = llm.requests[asked] ?? fail('the provider was not asked');
    await withDeadline(request.connection.closed, TURN_DEADLINE_MS, 'the provider connection closing');
    if (request.connection.closedBy !== 'client')
      throw new Error(`the provider connection closed by ${request.connection.closedBy ?? 'nobody early'}, not by its client`);
    return performance.timeOrigin + (request.connection.closedAt as number);
  };
  for (let round = 0; round < rounds; round++) {
    let asked = llm.requests.length;
    llm.enqueue(stalled());
    await page.getByLabel('Message').fill(`long story ${round}`);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.message.assistant.live').getByText('Partial answer').waitFor({ timeout: TURN_DEADLINE_MS });
    await page.evaluate(WATCH_STOP_CLICK);
    const pressing = performance.timeOrigin + performance.now();
    await page.getByRole('button', { name: 'Stop' }).click();
    const clickedAt = (await page.evaluate('window.benchStopAt')) as number;
    const closedAt = await closedAtWall(asked);
    // The page's clock and this one are read apart: the click must fall after the press began and before the close.
    if (!(clickedAt >= pressing - 1 && clickedAt <= closedAt + 1)) {
      throw new Error(
        `the page's click time (${clickedAt.toFixed(1)}) lies outside the press (${pressing.toFixed(1)}) → close (${closedAt.toFixed(1)}) window: the page's and node's clocks disagree`,
      );
    }
    fromPage.push(closedAt - clickedAt);
    await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: TURN_DEADLINE_MS });

    asked = llm.requests.length;
    llm.enqueue(stalled());
    let firstDelta: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (firstDelta = resolve));
    const turn = client.call(
      SocketApi.ChatSay,
      { session: 'bench-socket', text: `long story ${round}` },
      {
        onStream: (item) => {
          if ((item as ChatStreamItem).kind === 'delta') firstDelta();
        },
      },
    );
    await withDeadline(started, TURN_DEADLINE_MS, 'the first delta of a stalled answer');
    const sentAt = performance.timeOrigin + performance.now();
    client.notify(SocketApi.ChatInterrupt, { session: 'bench-socket' });
    fromSocket.push((await closedAtWall(asked)) - sentAt);
    const result = await withDeadline(turn, TURN_DEADLINE_MS, 'the interrupted chat/say');
    if (!result.interrupted) throw new Error('chat/interrupt did not interrupt the turn');
  }
  return [
    makeRow(
      SECTION,
      'Stop pressed → provider connection closed, p50',
      quantile(fromPage, 0.5),
      'ms',
      'socket chat/interrupt, p50',
      quantile(fromSocket, 0.5),
      rounds,
    ),
    makeRow(
      SECTION,
      'Stop pressed → provider connection closed, p99',
      quantile(fromPage, 0.99),
      'ms',
      'socket chat/interrupt, p99',
      quantile(fromSocket, 0.99),
      rounds,
      { kind: 'value-at-most', max: 50 },
    ),
  ];
}
