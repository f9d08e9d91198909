// The recipes of docs/ARCHITECTURE.md §16, kept true: the plugin they build (test/fixtures/plugins/recipe: one tool,
// one client method, one setting) runs in a real homed. Its setting is listed with its metadata by homectl, from the
// same config/list the page renders; homectl call calls its client method; the scripted model calls its tool and
// the tool's result reaches the answer waiter prints; and, where chromium is installed, the page's Settings shows it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ConfigEntry } from '../../protocol';
import { startFakeLlm, type FakeLlm, type FakeRequest } from '../fake-llm/server';
import { allowTools } from '../harness/approvals';
import { fakeProviderEnv, runHomectl, startHomed, type HomedHandle } from '../harness/homed';
import { runWaiter } from '../harness/waiter';
import { skip as noBrowser, startBrowserHarness, type BrowserHarness } from '../plugins/webui/browser-harness';

/** The fixture built from the recipes. */
const RECIPE = 'recipe';

describe('the plugin built from the recipes of docs/ARCHITECTURE.md', () => {
  let llm: FakeLlm;
  let homed: HomedHandle;
  before(async () => {
    llm = await startFakeLlm();
    homed = await startHomed({ plugins: [RECIPE], env: fakeProviderEnv(llm) });
  });
  after(async () => {
    await homed?.cleanup();
    await llm?.close();
  });

  const homectl = async (...args: string[]): Promise<string> => {
    const run = await runHomectl(args, { socket: homed.socket });
    assert.equal(run.code, 0, `homectl ${args.join(' ')}: ${run.stderr}`);
    return run.stdout;
  };
  const setGreeting = (value: string): Promise<string> => homectl('config', 'set', `${RECIPE}:greeting`, value);

  it('lists its setting with the metadata every UI renders from (config/list --all, as the page asks)', async () => {
    const entries = JSON.parse(await homectl('config', 'list', '--all', '--json')) as ConfigEntry[];
    const greeting = entries.find((entry) => entry.scope === RECIPE && entry.key === 'greeting');
    assert.ok(greeting, `recipe:greeting is listed among ${entries.length} settings`);
    assert.equal(greeting.value, 'Hello', 'its default, nothing set yet');
    assert.equal(greeting.isSet, false);
    assert.equal(greeting.def?.type, 'string');
    assert.equal(greeting.def?.category, 'greeting');
    assert.equal(greeting.def?.description?.en, 'The word the greet tool and recipe/greet put before a name.');
    assert.ok(greeting.def?.description?.zh, 'described in Chinese too');
  });

  it('answers its client method to homectl call, with params the kernel checked against its declaration', async () => {
    await setGreeting('Hi');
    assert.deepEqual(JSON.parse(await homectl('call', 'recipe/greet', '{"name":"Ada"}')), { greeting: 'Hi, Ada!' });
    const refused = await runHomectl(['call', 'recipe/greet', '{"name":""}'], { socket: homed.socket });
    assert.equal(refused.code, 1, `refused as homed's answer: ${refused.stderr}`);
    assert.match(refused.stderr, /\(HA_ERR_INVALID_VALUE\)/);
  });

  it('runs its tool for the model, and the tool’s result reaches the answer', async () => {
    await setGreeting('Good day');
    await allowTools(homed.socket, ['greet']);
    llm.enqueue({ toolCalls: [{ name: 'greet', args: { name: 'Ada' } }] }, (request) => ({ text: `The tool said: ${toolResult(request)}` }));
    const said = await runWaiter(['-data', homed.dataDir, '--session', 'cli:recipe', '-say', 'greet Ada']);
    assert.equal(said.code, 0, said.stderr);
    assert.equal(said.stdout, 'The tool said: {"greeting":"Good day, Ada!"}\n');
    const offered = (llm.requests[0]?.body as ChatBody | undefined)?.tools?.map((tool) => tool.function.name) ?? [];
    assert.ok(offered.includes('greet'), `greet is offered to the model (offered: ${offered.join(', ')})`);
  });
});

describe('the recipe plugin’s setting on the page', { skip: noBrowser }, () => {
  let harness: BrowserHarness;
  before(async () => {
    harness = await startBrowserHarness({ homed: { plugins: [RECIPE] } });
  });
  after(async () => {
    await harness?.close();
  });

  it('is rendered in Settings from its definition: input, default and description', async () => {
    const { context, page, foreign, errors } = await harness.signedInPage();
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const greeting = page.getByRole('region', { name: `Plugin ${RECIPE}` }).getByRole('group', { name: 'greeting', exact: true });
    await greeting.getByText('The word the greet tool and recipe/greet put before a name.').waitFor();
    assert.equal(await greeting.getByLabel('greeting').inputValue(), 'Hello');
    assert.equal(await greeting.getByRole('button', { name: 'Save' }).count(), 1, 'not guarded: the page may change it');
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
    await context.close();
  });
});

/** The OpenAI-wire body the fake model received. */
interface ChatBody {
  messages: { role: string; content: string }[];
  tools?: { function: { name: string } }[];
}

/** The content of the tool message the model was sent back: the tool's result as JSON. */
function toolResult(request: FakeRequest): string {
  const message = (request.body as ChatBody).messages.find((m) => m.role === 'tool');
  return message?.content ?? '(no tool message)';
}
