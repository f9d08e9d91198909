// ProviderManager: which provider answers, failover, the errors people read, seeding from the environment.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test, type TestContext } from 'node:test';
import { ConfigRegistry, MASK } from '../../../kernel/config';
import { defineLlmConfig, ProviderManager, seedProviderFromEnv } from '../../../kernel/llm';
import { ask, expectLlmError, setupLlm } from './helpers';

test('the default provider answers, and result.provider says so', async (t) => {
  const { fake, manager, addProvider, config } = await setupLlm(t);
  addProvider('work', 'openai');
  addProvider('home', 'ollama');
  config.set('core', 'llm.default', 'home');
  fake.enqueue({ text: 'from home' });
  const result = await manager.complete(ask());
  assert.equal(result.provider, 'home');
  assert.equal(result.model, 'model-home');
  assert.equal(fake.requests[0]!.path, '/api/chat');
});

test('hooks.provider picks the provider for one request', async (t) => {
  const { fake, manager, addProvider, config } = await setupLlm(t);
  addProvider('work', 'openai');
  addProvider('home', 'ollama');
  config.set('core', 'llm.default', 'home');
  fake.enqueue({ text: 'from work' });
  const result = await manager.complete(ask(), { provider: 'work' });
  assert.equal(result.provider, 'work');
});

test('failover: when the default gives up after its retries, the next provider in llm.fallbacks answers', async (t) => {
  const { fake, manager, addProvider, config } = await setupLlm(t);
  addProvider('work', 'openai');
  addProvider('second', 'anthropic');
  addProvider('third', 'ollama');
  config.set('core', 'llm.default', 'work');
  config.set('core', 'llm.fallbacks', 'second, third');
  fake.enqueue({ error: { status: 500 } }, { error: { status: 500 } }, { error: { status: 500 } }, { error: { status: 401 } }, { text: 'third answers' });
  const shown: string[] = [];
  const result = await manager.complete(ask(), { onText: (d) => shown.push(d) });
  assert.equal(result.provider, 'third');
  assert.equal(result.text, 'third answers');
  assert.equal(shown.join(''), 'third answers');
  assert.deepEqual(
    fake.requests.map((r) => r.wire),
    ['openai', 'openai', 'openai', 'anthropic', 'ollama'],
    '3 attempts at work, 401 at second is not retried',
  );
});

test('when every provider fails, the error lists each one with its status and message', async (t) => {
  const { fake, manager, addProvider, config } = await setupLlm(t, { attempts: 1, baseMs: 1, jitter: 0 });
  addProvider('work', 'openai');
  addProvider('backup', 'anthropic');
  config.set('core', 'llm.default', 'work');
  config.set('core', 'llm.fallbacks', 'backup');
  fake.enqueue(
    { error: { status: 503, body: { error: { message: 'upstream down', type: 'server_error' } } } },
    { error: { status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } } },
  );
  const error = await expectLlmError(() => manager.complete(ask()));
  assert.equal(error.kind, 'exhausted');
  assert.deepEqual(
    error.failures.map((f) => [f.provider, f.status]),
    [
      ['work', 503],
      ['backup', 401],
    ],
  );
  assert.match(
    error.message,
    /^every LLM provider failed:\n {2}work: LLM provider "work" answered HTTP 503 \(server_error\): upstream down\n {2}backup: LLM provider "backup" answered HTTP 401 \(authentication_error\): invalid x-api-key$/,
  );
});

test('a provider that cannot be reached fails over to the next', async (t) => {
  const { fake, manager, addProvider, config } = await setupLlm(t, { attempts: 2, baseMs: 1, jitter: 0 });
  addProvider('gone', 'openai', { base_url: 'http://127.0.0.1:1/v1' });
  addProvider('backup', 'openai');
  config.set('core', 'llm.default', 'gone');
  config.set('core', 'llm.fallbacks', 'backup');
  fake.enqueue({ text: 'backup here' });
  const result = await manager.complete(ask());
  assert.equal(result.provider, 'backup');
});

test('a misconfigured provider (no model) is skipped for the next one; alone it says what to set', async (t) => {
  const { fake, manager, addProvider, config } = await setupLlm(t);
  addProvider('work', 'openai');
  config.unset('core', 'llm.provider.work.model');
  const alone = await expectLlmError(() => manager.complete(ask()));
  assert.equal(alone.kind, 'config');
  assert.match(alone.message, /LLM provider "work" has no model; set one with: homectl config set llm.provider.work.model <model name>/);

  addProvider('backup', 'anthropic');
  config.set('core', 'llm.default', 'work');
  config.set('core', 'llm.fallbacks', 'backup');
  fake.enqueue({ text: 'ok' });
  assert.equal((await manager.complete(ask())).provider, 'backup');
});

test('with no provider configured, the error says exactly which commands configure one', async (t) => {
  const { manager } = await setupLlm(t);
  const error = await expectLlmError(() => manager.complete(ask()));
  assert.equal(error.kind, 'config');
  for (const command of [
    'homectl config set llm.default work',
    'homectl config set llm.provider.work.adapter openai',
    'homectl config set llm.provider.work.base_url ',
    'homectl config set llm.provider.work.model ',
    'homectl config set llm.provider.work.api_key ',
  ]) {
    assert.ok(error.message.includes(command), `mentions "${command}"`);
  }
  assert.match(error.message, /^no LLM provider is configured\. Set one up with:/);
});

test('llm.default naming a provider that does not exist says so, and lists the known ones', async (t) => {
  const { manager, addProvider, config } = await setupLlm(t);
  config.set('core', 'llm.default', 'work');
  const none = await expectLlmError(() => manager.complete(ask()));
  assert.match(none.message, /^llm.default is "work", but no LLM provider is configured\. Set one up with:/);
  addProvider('home', 'ollama');
  const unknown = await expectLlmError(() => manager.complete(ask()));
  assert.match(unknown.message, /llm.default is "work", but no provider "work" is configured \(known: home\)/);
});

test('without llm.default, a single provider is used; several are refused with the command to choose', async (t) => {
  const { fake, manager, addProvider } = await setupLlm(t);
  addProvider('only', 'openai');
  fake.enqueue({ text: 'hi' });
  assert.equal((await manager.complete(ask())).provider, 'only');
  addProvider('other', 'openai');
  const error = await expectLlmError(() => manager.complete(ask()));
  assert.match(
    error.message,
    /llm.default is not set and there are several LLM providers \(only, other\); choose one with: homectl config set llm.default only/,
  );
});

test('describe lists providers without their secrets', async (t) => {
  const { manager, addProvider, config } = await setupLlm(t);
  addProvider('work', 'openai', { max_tokens: 500 });
  addProvider('home', 'ollama', { api_key: '' });
  config.set('core', 'llm.default', 'work');
  config.set('core', 'llm.fallbacks', 'home');
  const info = manager.describe();
  assert.deepEqual(
    info.map((p) => [p.name, p.adapter, p.hasApiKey, p.isDefault, p.fallbackRank, p.maxTokens, p.timeoutMs, p.deadlineMs]),
    [
      ['home', 'ollama', false, false, 1, undefined, 120_000, 600_000],
      ['work', 'openai', true, true, undefined, 500, 120_000, 600_000],
    ],
  );
  assert.ok(!JSON.stringify(info).includes('sk-work-secret'), 'no api key in describe()');
});

test('the api key is a password under a pattern definition: masked in get, list and change events', async (t) => {
  const { config, addProvider } = await setupLlm(t);
  const seen: unknown[] = [];
  config.onChange((change) => seen.push(change.entry));
  addProvider('work', 'openai');
  assert.equal(config.get('core', 'llm.provider.work.api_key').value, MASK);
  assert.equal(config.get('core', 'llm.provider.work.api_key').def?.type, 'password');
  assert.equal(config.getValue('core', 'llm.provider.work.api_key'), 'sk-work-secret');
  const listed = JSON.stringify(config.list('core'));
  assert.ok(!listed.includes('sk-work-secret') && !JSON.stringify(seen).includes('sk-work-secret'));
  assert.equal(config.get('core', 'llm.provider.work.timeout').value, 120_000, 'pattern defaults apply');
});

function openRegistry(t: TestContext): ConfigRegistry {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ha-llm-seed-'));
  const config = ConfigRegistry.open(path.join(dir, 'config.db'));
  t.after(() => {
    config.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return config;
}

test('seedProviderFromEnv configures provider "main" from HOMEAGENT_LLM_* when llm.default is not set', (t) => {
  const config = openRegistry(t);
  const env = {
    HOMEAGENT_LLM_ADAPTER: 'anthropic',
    HOMEAGENT_LLM_BASE_URL: 'https://api.anthropic.com',
    HOMEAGENT_LLM_MODEL: 'claude-sonnet-4-5',
    HOMEAGENT_LLM_API_KEY: 'sk-ant-secret',
  };
  assert.equal(seedProviderFromEnv(config, env), 'main');
  assert.equal(config.getValue('core', 'llm.default'), 'main');
  assert.equal(config.getValue('core', 'llm.provider.main.adapter'), 'anthropic');
  assert.equal(config.getValue('core', 'llm.provider.main.model'), 'claude-sonnet-4-5');
  assert.equal(config.get('core', 'llm.provider.main.api_key').value, MASK);
  // A later start with other values changes nothing: config wins once set.
  assert.equal(seedProviderFromEnv(config, { ...env, HOMEAGENT_LLM_MODEL: 'other' }), undefined);
  assert.equal(config.getValue('core', 'llm.provider.main.model'), 'claude-sonnet-4-5');
});

test('seedProviderFromEnv defaults the adapter to openai and does nothing without any HOMEAGENT_LLM_* setting', (t) => {
  const config = openRegistry(t);
  assert.equal(seedProviderFromEnv(config, { HOMEAGENT_LLM_API_KEY: 'sk-only-a-key' }), undefined);
  assert.equal(config.get('core', 'llm.default').isSet, false);
  assert.equal(seedProviderFromEnv(config, { HOMEAGENT_LLM_BASE_URL: 'http://127.0.0.1:8000/v1', HOMEAGENT_LLM_MODEL: 'qwen' }), 'main');
  assert.equal(config.getValue('core', 'llm.provider.main.adapter'), 'openai');
  assert.equal(config.get('core', 'llm.provider.main.api_key').isSet, false);
  const manager = new ProviderManager(config, os.tmpdir());
  assert.deepEqual(
    manager.describe().map((p) => [p.name, p.baseUrl, p.model, p.isDefault]),
    [['main', 'http://127.0.0.1:8000/v1', 'qwen', true]],
  );
});

test('the llm definitions have both languages and category llm', (t) => {
  const config = openRegistry(t);
  defineLlmConfig(config);
  const defs = config.list('core').filter((e) => e.key.startsWith('llm.'));
  assert.ok(defs.length >= 10);
  for (const entry of defs) {
    assert.equal(entry.def?.category, 'llm', entry.key);
    assert.ok(entry.def?.description?.zh && entry.def.description.en, `${entry.key} is described in zh and en`);
  }
  assert.deepEqual(
    config.patternDefs('core').map((d) => d.key),
    [
      'llm.provider.*.adapter',
      'llm.provider.*.api_key',
      'llm.provider.*.base_url',
      'llm.provider.*.context_window',
      'llm.provider.*.deadline',
      'llm.provider.*.max_tokens',
      'llm.provider.*.model',
      'llm.provider.*.timeout',
    ],
  );
});
