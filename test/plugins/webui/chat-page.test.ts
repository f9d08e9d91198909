// The Chat page in chromium against a real homed whose model is the fake LLM: an answer streams in as Markdown,
// Stop ends the turn at once (the provider's connection closes) and keeps what came, a turn nobody on the page
// started appears without a reload, the shell says "Reconnecting…" while the webui process is gone and comes back
// with the conversation intact, and the page fits a 375 px phone.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { callOnce } from '../../../plugins/cli/client';
import { SocketApi } from '../../../protocol';
import { lastUserText, toolResultsSinceUser } from '../../fake-llm/server';
import { waitFor } from '../../harness/homed';
import { PHONE, skip, startBrowserHarness, type BrowserHarness, type GuardedPage } from './browser-harness';

const SESSION = 'web:home';

describe('the Chat page in chromium', { skip }, () => {
  let harness: BrowserHarness;
  let llm: NonNullable<BrowserHarness['llm']>;
  let tab: GuardedPage;
  before(async () => {
    harness = await startBrowserHarness({ llm: true });
    llm = harness.llm as NonNullable<BrowserHarness['llm']>;
    tab = await harness.signedInPage();
  });
  after(async () => {
    await harness?.close();
  });

  const history = (): ReturnType<GuardedPage['page']['getByRole']> => tab.page.getByRole('list', { name: 'History' });

  it('streams an answer as Markdown into the page’s own conversation', async () => {
    const { page } = tab;
    llm.enqueue({ chunks: ['Hello ', '**bold** ', 'and a [link](https://example.org/x) ', 'and [bad](javascript:alert(1))'], tokenDelayMs: 30 });
    await page.getByLabel('Message').fill('Say hello');
    await page.getByRole('button', { name: 'Send' }).click();
    await history().locator('.message.user').getByText('Say hello').waitFor();
    await history().locator('.message.assistant strong').getByText('bold').waitFor();
    await history().locator('.message.assistant').getByText('bad').waitFor();
    await page.getByRole('button', { name: 'Send' }).waitFor();
    const link = history().getByRole('link', { name: 'link' });
    assert.equal(await link.getAttribute('href'), 'https://example.org/x');
    assert.equal(await link.getAttribute('rel'), 'noopener noreferrer nofollow');
    assert.equal(await link.getAttribute('target'), '_blank');
    assert.equal(await history().getByRole('link', { name: 'bad' }).count(), 0, 'a javascript: link is not a link');
    assert.equal((llm.requests.at(-1)?.body as { messages: { content: string }[] }).messages.at(-1)?.content, 'Say hello');
    assert.equal(await page.getByRole('combobox', { name: 'Conversation' }).inputValue(), SESSION);
    const { entries } = await callOnce(harness.live.homed.socket, SocketApi.SessionsShow, { session: SESSION });
    assert.deepEqual(
      entries.map((e) => [e.role, e.text]),
      [
        ['user', 'Say hello'],
        ['assistant', 'Hello **bold** and a [link](https://example.org/x) and [bad](javascript:alert(1))'],
      ],
    );
    await harness.screenshot(page, 'chat-desktop');
  });

  it('stops a running answer at once: the provider’s connection closes and the partial answer stays', async () => {
    const { page } = tab;
    const asked = llm.requests.length;
    // The first chunk carries only the role: stalled after 3, the two words came and the third never does.
    llm.enqueue({ chunks: ['Partial ', 'answer ', 'never'], stallAfterChunks: 3 });
    await page.getByLabel('Message').fill('Tell me a long story');
    await page.getByRole('button', { name: 'Send' }).click();
    await history().locator('.message.assistant.live').getByText('Partial answer').waitFor();
    const connection = (llm.requests[asked] ?? assert.fail('the provider was not asked')).connection;
    await page.getByRole('button', { name: 'Stop' }).click();
    await connection.closed;
    assert.equal(connection.closedEarly, true);
    assert.equal(connection.closedBy, 'client');
    const last = history().locator('.message.assistant').last();
    await last.getByText('stopped').waitFor();
    assert.match((await last.textContent()) ?? '', /Partial answer/);
    assert.doesNotMatch((await last.textContent()) ?? '', /never/);
    await page.getByRole('button', { name: 'Send' }).waitFor();
  });

  it('shows a turn nobody on the page started without a reload', async () => {
    llm.enqueue({ text: 'Your tea is ready', tokenDelayMs: 20 });
    // Another client hands the idle session text: a turn starts that no chat/say waits for.
    const sent = await callOnce(harness.live.homed.socket, SocketApi.ChatInterrupt, { session: SESSION, text: 'the kettle timer fired' });
    assert.equal(sent.sent, true);
    await history().locator('.message.assistant').getByText('Your tea is ready').waitFor();
    const { entries } = await callOnce(harness.live.homed.socket, SocketApi.SessionsShow, { session: SESSION });
    const handed = entries.find((e) => e.text.includes('the kettle timer fired')) ?? assert.fail(`the handed text is not stored: ${JSON.stringify(entries)}`);
    await history().locator(`.message.${handed.role}`).getByText('the kettle timer fired').waitFor();
  });

  it('shows a tool call as a card that opens to its arguments and result, and the same card after a reload', async () => {
    const { page } = tab;
    llm.enqueue({ toolCalls: [{ id: 'call_water', name: 'timer_set', args: { message: 'water the plants', delay: '1h' } }] }, { text: 'I set a timer.' });
    await page.getByLabel('Message').fill('Remind me to water the plants');
    await page.getByRole('button', { name: 'Send' }).click();
    await history().locator('.message.assistant').getByText('I set a timer.').waitFor();
    await page.getByRole('button', { name: 'Send' }).waitFor();
    const { entries } = await callOnce(harness.live.homed.socket, SocketApi.SessionsShow, { session: SESSION });
    const stored = entries.find((e) => e.role === 'tool' && e.callId === 'call_water') ?? assert.fail(`no stored result: ${JSON.stringify(entries)}`);
    const checkCard = async (): Promise<void> => {
      const card = history().locator('.tool-card').filter({ hasText: 'timer_set' }).last();
      await card.locator('.tool-state').getByText('done').waitFor();
      assert.match((await card.locator('summary').textContent()) ?? '', /timer_set\s*done\s*\d+ ms/);
      assert.equal(await card.locator('.tool-args').isVisible(), false, 'a card starts closed');
      await card.locator('summary').click();
      assert.equal(await card.locator('.tool-args').textContent(), '{"message":"water the plants","delay":"1h"}');
      assert.equal(await card.locator('.tool-result').textContent(), stored.text);
    };
    await checkCard();
    await page.reload();
    await page.getByRole('button', { name: 'Send' }).waitFor();
    await checkCard();
    await harness.screenshot(page, 'chat-tool-card');
  });

  it("shows a sub-agent's call as a card marked as its own, live and after a reload", async () => {
    const { page } = tab;
    llm.setDefault((request) => {
      const user = lastUserText(request);
      const done = toolResultsSinceUser(request);
      if (user === 'Have a helper set the bread timer') {
        if (done === 0) return { toolCalls: [{ name: 'spawn_child', args: { task: 'set a timer for the bread' } }] };
        if (done === 1) return { toolCalls: [{ name: 'child_result', args: { child: 'child-1', timeout_ms: 30_000 } }] };
        return { text: 'The helper set it.' };
      }
      if (user === 'set a timer for the bread')
        return done === 0 ? { toolCalls: [{ name: 'timer_set', args: { message: 'take the bread out', delay: '2h' } }] } : { text: 'Set.' };
      return { text: `unexpected: ${String(user)}` };
    });
    try {
      await page.getByLabel('Message').fill('Have a helper set the bread timer');
      await page.getByRole('button', { name: 'Send' }).click();
      await history().locator('.message.assistant').getByText('The helper set it.').waitFor();
      await page.getByRole('button', { name: 'Send' }).waitFor();
      const checkCard = async (): Promise<void> => {
        const card = history().locator('.tool-card').filter({ hasText: 'child-1 › timer_set' }).last();
        await card.locator('.tool-state').getByText('done').waitFor();
        await card.locator('summary').click();
        assert.equal(await card.locator('.tool-args').textContent(), '{"message":"take the bread out","delay":"2h"}');
        assert.match((await card.locator('.tool-result').textContent()) ?? '', /^\{"id":"t-[0-9a-f]+","fires_at":"[^"]+"\}$/);
      };
      await checkCard();
      await page.reload();
      await page.getByRole('button', { name: 'Send' }).waitFor();
      await checkCard();
      assert.equal(await history().locator('.tool-card').filter({ hasText: 'child-1 › timer_set' }).count(), 1, 'one card for the call after the reload');
    } finally {
      llm.setDefault(undefined);
    }
  });

  it('says "Reconnecting…" while the webui process is gone and comes back with the conversation intact', async () => {
    const { page, errors } = tab;
    // Keep the port across the restart, so the page's origin stays the same.
    await callOnce(harness.live.homed.socket, SocketApi.ConfigSet, { scope: 'webui', key: 'port', value: harness.live.port });
    const first = await waitFor(
      async () => {
        const status = await harness.live.webuiStatus();
        return status.state === 'ready' && status.pid !== null && status;
      },
      { what: 'webui ready' },
    );
    process.kill(first.pid as number, 'SIGKILL');
    await page.getByRole('status', { name: 'Connection' }).getByText('Reconnecting…').waitFor();
    await waitFor(
      async () => {
        const status = await harness.live.webuiStatus();
        return status.state === 'ready' && status.pid !== first.pid;
      },
      { what: 'webui restarted by the supervisor', timeoutMs: 30_000 },
    );
    assert.equal(Number(fs.readFileSync(harness.live.portFile, 'utf8')), harness.live.port);
    await page.getByRole('status', { name: 'Connection' }).getByText('Connected').waitFor({ timeout: 30_000 });
    await history().locator('.message.user').getByText('Say hello').waitFor();
    await history().locator('.message.assistant').getByText('Your tea is ready').waitFor();
    // Refused reconnection attempts are the only errors the page logged.
    assert.deepEqual(
      errors.filter((e) => !/WebSocket connection to .* failed/.test(e)),
      [],
    );
    assert.deepEqual(tab.foreign, []);
  });

  it('fits a 375 px phone, in Chinese too', async () => {
    const phone = await harness.signedInPage(PHONE);
    const { page } = phone;
    await page.getByRole('list', { name: 'History' }).locator('.message.user').getByText('Say hello').waitFor();
    const width = await page.locator('html').evaluate((root) => root.scrollWidth);
    assert.ok(width <= PHONE.width, `the page is ${width} px wide`);
    for (const name of ['Message']) assert.ok(await page.getByLabel(name).isVisible(), name);
    assert.ok(await page.getByRole('button', { name: 'Send' }).isVisible());
    await harness.screenshot(page, 'chat-phone');
    await page.getByRole('combobox', { name: 'Language' }).selectOption('zh');
    await page.getByRole('button', { name: '发送' }).waitFor();
    assert.equal(await page.getByRole('button', { name: '聊天' }).count(), 1);
    assert.ok(await page.getByLabel('消息', { exact: true }).isVisible());
    await harness.screenshot(page, 'chat-phone-zh');
    await page.reload();
    await page.getByRole('button', { name: '发送' }).waitFor();
    await page.getByRole('combobox', { name: '语言' }).selectOption('en');
    assert.deepEqual(phone.foreign, []);
    assert.deepEqual(phone.errors, []);
    await phone.context.close();
  });
});
