// Shared by the page's browser tests: a real homed with the webui plugin on a random port (and, when asked, its
// model pointed at a fake LLM), Debian's chromium driven by playwright-core, signed-in pages whose requests to any
// other origin fail the test, screenshots at desktop and phone width, and cleanup that leaves no process behind.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserServer, type Page } from 'playwright-core';
import { startFakeLlm, type FakeLlm } from '../../fake-llm/server';
import { fakeProviderEnv, type StartOptions } from '../../harness/homed';
import { startLiveWebui, type LiveWebui } from './live';

export const CHROMIUM = '/usr/bin/chromium';
/** A name the browser resolves to 127.0.0.1 (and nothing else does): a page reached by it sends a forged Host. */
export const FORGED_HOST = 'evil.example';
// playwright adds --headless itself (headless is its default) and drops a --headless passed here.
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--host-resolver-rules=MAP ${FORGED_HOST} 127.0.0.1`,
];

/** `describe(…, { skip })`: false when chromium is there, else why the browser tests cannot run. */
export const skip: string | false = fs.existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium) to run the browser tests`;

/**
 * Where the tests keep their screenshots, to look at after a run: HOMEAGENT_SCREENS names a folder. Without it each
 * page is still rendered to a PNG (a page that cannot be drawn fails the test), and the picture is not kept.
 */
export const SCREENS_DIR = process.env['HOMEAGENT_SCREENS'];

/** Desktop and phone viewports. */
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 740 };

/** A page in its own context, with what it tried to load from other origins and the errors it logged. */
export interface GuardedPage {
  context: BrowserContext;
  page: Page;
  /** URLs of other origins the page asked for (each request was aborted). */
  foreign: string[];
  /** Uncaught exceptions and console errors. */
  errors: string[];
}

export interface BrowserHarness {
  live: LiveWebui;
  browser: Browser;
  /** The fake LLM homed's model talks to (only with `{ llm: true }`). */
  llm: FakeLlm | undefined;
  /** A fresh context, guarded against other origins, not signed in. */
  guardedPage(viewport?: { width: number; height: number }): Promise<GuardedPage>;
  /** A fresh guarded context signed in with a one-time link, waiting until the shell is connected. */
  signedInPage(viewport?: { width: number; height: number }): Promise<GuardedPage>;
  /** Renders a full-page PNG; with HOMEAGENT_SCREENS set, keeps it as <SCREENS_DIR>/<name>.png and returns its path. */
  screenshot(page: Page, name: string): Promise<string | undefined>;
  /** Closes the browser (its whole process group), homed and the fake LLM. */
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** Start a fake LLM and point homed's model at it. */
  llm?: boolean;
  /** More for startHomed (env merges over the fake LLM's). */
  homed?: StartOptions;
}

export async function startBrowserHarness(options: HarnessOptions = {}): Promise<BrowserHarness> {
  const llm = options.llm ? await startFakeLlm() : undefined;
  let live: LiveWebui | undefined;
  let server: BrowserServer | undefined;
  let browser: Browser | undefined;
  const close = async (): Promise<void> => {
    const pid = server?.process().pid;
    await browser?.close().catch(() => undefined);
    await server?.close().catch(() => undefined);
    // The browser leads its own process group: end it and every renderer it started.
    if (pid !== undefined) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await live?.homed.cleanup();
    await llm?.close();
  };
  try {
    const env = { ...(llm ? fakeProviderEnv(llm) : {}), ...options.homed?.env };
    live = await startLiveWebui({ ...options.homed, env });
    // playwright gives each launch a fresh temporary profile (its own --user-data-dir) and removes it on close.
    server = await chromium.launchServer({ executablePath: CHROMIUM, args: FLAGS });
    browser = await chromium.connect(server.wsEndpoint());
  } catch (error) {
    await close();
    throw error;
  }
  const liveWebui = live;
  const connected = browser;

  const guardedPage = async (viewport = DESKTOP): Promise<GuardedPage> => {
    const context = await connected.newContext({ viewport });
    const foreign: string[] = [];
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      if (new URL(url).origin === liveWebui.origin) return route.continue();
      foreign.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    return { context, page, foreign, errors };
  };

  const signedInPage = async (viewport = DESKTOP): Promise<GuardedPage> => {
    const guarded = await guardedPage(viewport);
    await guarded.page.goto(liveWebui.link());
    await guarded.page.getByRole('status', { name: 'Connection' }).getByText('Connected', { exact: true }).waitFor({ timeout: 20_000 });
    return guarded;
  };

  const screenshot = async (page: Page, name: string): Promise<string | undefined> => {
    const png = await page.screenshot({ fullPage: true });
    assert.ok(png.length > 0, `a picture of ${name}`);
    if (SCREENS_DIR === undefined) return undefined;
    fs.mkdirSync(SCREENS_DIR, { recursive: true });
    const file = path.join(SCREENS_DIR, `${name}.png`);
    fs.writeFileSync(file, png);
    return file;
  };

  return { live: liveWebui, browser: connected, llm, guardedPage, signedInPage, screenshot, close };
}
