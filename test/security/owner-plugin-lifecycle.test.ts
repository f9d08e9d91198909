// A plugin's life is the owner's where it widens what the agent may do: a plugin the owner disabled is enabled
// again, and a plugin that guards tool calls is removed, only on the owner's own call (homectl at the machine).
// Before, the page (a sniffed cookie on the LAN) and the shared socket did both: enabling a plugin whose tools the
// owner had kept out, or removing a third-party guard so that every tool ran unasked.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { callOnce } from '../../plugins/cli/client';
import { adminSocketInDataDir } from '../../plugins/cli/locate';
import { SocketApi, type RequestDescriptor } from '../../protocol';
import { runHomectl, waitFor } from '../harness/homed';
import { openPageSocket, signInLive, startLiveWebui, type LiveWebui, type PageAnswer, type PageSocket } from '../plugins/webui/live';

type Answer<R = unknown> = PageAnswer<R>;

describe("a plugin's life, where it widens what the agent may do, is the owner's", () => {
  let live: LiveWebui;
  let page: PageSocket;
  let admin: string;

  before(async () => {
    live = await startLiveWebui({ plugins: ['stage-guard', 'calculator'] });
    page = await openPageSocket(live, await signInLive(live));
    admin = adminSocketInDataDir(live.homed.dataDir);
  });
  after(async () => {
    page?.close();
    await live?.homed.cleanup();
  });

  /** One request over the shared socket, as homed's own user: the shared socket is not the owner's, whoever connects. */
  const shared = async <P, R>(descriptor: RequestDescriptor<P, R>, params: NoInfer<P>): Promise<Answer<R>> => {
    try {
      return { result: await callOnce(live.homed.socket, descriptor, params) };
    } catch (error) {
      const answer = (error as { error?: { message: string; name?: string } }).error;
      return { error: answer ?? { message: (error as Error).message } };
    }
  };
  const state = async (name: string): Promise<string> => (await callOnce(admin, SocketApi.PluginsInfo, { name })).plugin.state;
  const installed = async (name: string): Promise<boolean> => (await callOnce(admin, SocketApi.PluginsList, {})).plugins.some((p) => p.name === name);

  it('a plugin the owner disabled is enabled again by homectl only, not by the page or the shared socket', async () => {
    const disabled = await runHomectl(['plugins', 'disable', 'calculator'], { socket: live.homed.socket });
    assert.equal(disabled.code, 0, disabled.stderr);
    assert.equal(await state('calculator'), 'disabled');
    for (const [who, answer] of [
      ['the page', await page.call(SocketApi.PluginsControl, { name: 'calculator', action: 'enable' })],
      ['the shared socket', await shared(SocketApi.PluginsControl, { name: 'calculator', action: 'enable' })],
    ] as const) {
      assert.equal(answer.error?.name, 'HA_ERR_PERMISSION_DENIED', `enable from ${who}: ${JSON.stringify(answer)}`);
      assert.match(
        answer.error.message,
        /plugin "calculator" is disabled, and enabling it gives the agent what it brings, so only the owner does it, .*homectl plugins enable calculator/,
      );
    }
    assert.equal(await state('calculator'), 'disabled', 'still disabled');

    const enabled = await runHomectl(['plugins', 'enable', 'calculator'], { socket: live.homed.socket });
    assert.equal(enabled.code, 0, enabled.stderr);
    await waitFor(async () => (await state('calculator')) === 'ready', { what: 'calculator to be ready again', timeoutMs: 30_000 });
    // Enabling what is already enabled widens nothing: the page may (it answers the plugin's state).
    const again = await page.call(SocketApi.PluginsControl, { name: 'calculator', action: 'enable' });
    assert.equal(again.error, undefined, JSON.stringify(again));
  });

  it('a plugin that guards tool calls is removed by homectl only; the page may remove one that does not', async () => {
    await waitFor(async () => (await state('stage-guard')) === 'ready', { what: 'stage-guard to be ready', timeoutMs: 30_000 });
    for (const [who, answer] of [
      ['the page', await page.call(SocketApi.PluginsRemove, { name: 'stage-guard' })],
      ['the shared socket', await shared(SocketApi.PluginsRemove, { name: 'stage-guard' })],
    ] as const) {
      assert.equal(answer.error?.name, 'HA_ERR_PERMISSION_DENIED', `remove from ${who}: ${JSON.stringify(answer)}`);
      assert.match(
        answer.error.message,
        /plugin "stage-guard" guards every tool call \(before_toolcall\): .*only the owner removes it, .*homectl plugins remove stage-guard/,
      );
    }
    assert.equal(await installed('stage-guard'), true, 'the guard is still installed');
    assert.equal(await state('stage-guard'), 'ready', 'and still guards');

    const byPage = await page.call(SocketApi.PluginsRemove, { name: 'calculator' });
    assert.equal(byPage.error, undefined, `removing a plugin that guards nothing narrows what the agent may do: ${JSON.stringify(byPage)}`);
    assert.equal(await installed('calculator'), false);

    const removed = await runHomectl(['plugins', 'remove', 'stage-guard'], { socket: live.homed.socket });
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal(await installed('stage-guard'), false);
  });
});
