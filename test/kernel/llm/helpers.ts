import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TestContext } from 'node:test';
import { ConfigRegistry } from '../../../kernel/config';
import { LlmError, ProviderManager, type LlmRequest, type RetryPolicy } from '../../../kernel/llm';
import { BUILTIN_ADAPTER_DIR } from '../../../kernel/llm/adapter-store';
import { startFakeLlm, type FakeLlm, type FakeWire } from '../../fake-llm/server';

/** The repository root (this file runs from dist/test/kernel/llm). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..', '..');

/** The shared wire-format corpus, beside the repository in the workspace; absent in a user's clone. */
export const CORPUS_DIR = path.resolve(REPO_ROOT, '..', 'shared', 'corpus', 'llm');

/** The corpus file's path, or undefined (and the test skipped with a note) when the corpus is not there. */
export function corpusFile(t: TestContext, name: string): string | undefined {
  const file = path.join(CORPUS_DIR, name);
  if (fs.existsSync(file)) return file;
  t.skip(`the shared LLM corpus is not present (${CORPUS_DIR}); the generated cases in adapters.test.ts cover the same behaviours`);
  return undefined;
}

/** Retries shrunk for tests: the same logic, millisecond waits. */
export const FAST_RETRY: Partial<RetryPolicy> = { baseMs: 5, maxMs: 20, jitter: 0, attempts: 3, maxRetryAfterMs: 5000 };

export interface LlmSetup {
  fake: FakeLlm;
  config: ConfigRegistry;
  manager: ProviderManager;
  dataDir: string;
  /** Configures provider `name` against the fake, speaking `wire`. */
  addProvider(name: string, wire: FakeWire, extra?: Record<string, unknown>): void;
}

/** Starts a fake LLM, a config registry in a temp data dir and a ProviderManager, all closed after the test. */
export async function setupLlm(t: TestContext, retry: Partial<RetryPolicy> = FAST_RETRY): Promise<LlmSetup> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ha-llm-'));
  const fake = await startFakeLlm();
  const config = ConfigRegistry.open(path.join(dataDir, 'config.db'));
  const manager = new ProviderManager(config, dataDir, { retry, env: {} });
  t.after(async () => {
    await fake.close();
    config.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    fake,
    config,
    manager,
    dataDir,
    addProvider(name, wire, extra = {}) {
      const settings: Record<string, unknown> = { adapter: wire, base_url: fake.baseUrl(wire), model: `model-${name}`, api_key: `sk-${name}-secret`, ...extra };
      for (const [field, value] of Object.entries(settings)) config.set('core', `llm.provider.${name}.${field}`, value);
    },
  };
}

// The shipped OpenAI adapter, counting its request() calls in a header.
const COUNTING = fs
  .readFileSync(path.join(BUILTIN_ADAPTER_DIR, 'openai.lua'), 'utf8')
  .replace('function M.request(req, provider)', 'local built = 0\nfunction M.request(req, provider)\n  built = built + 1')
  .replace(
    'local headers = { ["content-type"] = "application/json", accept = "text/event-stream" }',
    'local headers = { ["content-type"] = "application/json", accept = "text/event-stream", ["x-built"] = tostring(built) }',
  );

/** setupLlm with provider "p" on an adapter `counting` (in the data dir) that numbers the requests it builds in header x-built. */
export async function setupCounting(t: TestContext, retry?: Partial<RetryPolicy>): Promise<LlmSetup & { builds(): number }> {
  const setup = await setupLlm(t, retry);
  fs.mkdirSync(path.join(setup.dataDir, 'adapters'));
  fs.writeFileSync(path.join(setup.dataDir, 'adapters', 'counting.lua'), COUNTING);
  setup.addProvider('p', 'openai', { adapter: 'counting' });
  const builds = (): number => Number(setup.fake.requests[setup.fake.requests.length - 1]!.headers['x-built']);
  return { ...setup, builds };
}

/** A one-message request. */
export function ask(text = 'hello'): LlmRequest {
  return { messages: [{ role: 'user', content: text }] };
}

/** Runs `fn`, expects it to reject with an LlmError, and returns that error. */
export async function expectLlmError(fn: () => Promise<unknown>): Promise<LlmError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof LlmError) return error;
    throw new Error(`expected an LlmError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected an LlmError, but the call succeeded');
}
