// Settings that widen what the agent may do are guarded: only the owner on the machine changes them (homectl),
// never the page. Before, a page's WebSocket ran config/set approvals:policy {"exec":"allow"} and files:roots
// ["/"], so a cookie sniffed on the LAN was root.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { callOnce } from '../../plugins/cli/client';
import { ApprovalsApi, SocketApi, type ConfigEntry } from '../../protocol';
import { runHomectl } from '../harness/homed';
import { openPageSocket, signInLive, startLiveWebui, type LiveWebui, type PageSocket } from '../plugins/webui/live';
import { byName } from '../harness/by-name';

/** Guarded keys and a value that would widen each. */
const WIDENING: { scope: string; key: string; value: unknown }[] = [
  { scope: 'approvals', key: 'policy', value: { exec: 'allow' } },
  { scope: 'approvals', key: 'rules', value: [{ id: 'r1', tool: 'exec', prefix: '', action: 'allow' }] },
  { scope: 'files', key: 'roots', value: ['/'] },
  { scope: 'web', key: 'allow_private', value: ['0.0.0.0/0'] },
  { scope: 'webui', key: 'bind', value: 'lan' },
  { scope: 'webui', key: 'hosts', value: ['attacker.example'] },
  { scope: 'exec', key: 'network', value: true },
  { scope: 'exec', key: 'max_timeout', value: 600_000 },
  { scope: 'pluginmgr', key: 'agent_refused_permissions', value: [] },
  { scope: 'core', key: 'core.knowledge.path', value: '/' },
];

describe('guarded settings', () => {
  let live: LiveWebui;
  let page: PageSocket;
  before(async () => {
    live = await startLiveWebui();
    page = await openPageSocket(live, await signInLive(live));
  });
  after(async () => {
    page?.close();
    await live?.homed.cleanup();
  });

  const read = async (scope: string, key: string): Promise<ConfigEntry> => (await callOnce(live.homed.socket, SocketApi.ConfigGet, { scope, key })).entry;
  const label = (scope: string, key: string): string => (scope === 'core' ? key : `${scope}:${key}`);

  it('refuses config/set and config/unset of each over the WebSocket, naming the homectl command', async () => {
    for (const { scope, key, value } of WIDENING) {
      const before = await read(scope, key);
      const set = await page.call(SocketApi.ConfigSet, { scope, key, value });
      assert.ok(set.error, `config/set ${label(scope, key)} over the WebSocket was refused, not ${JSON.stringify(set.result)}`);
      assert.equal(before.def?.guarded, true, `${label(scope, key)} is marked guarded in its definition`);
      assert.equal(set.error.name, 'HA_ERR_PERMISSION_DENIED');
      assert.ok(set.error.message.includes(`homectl config set ${label(scope, key)}`), set.error.message);
      const unset = await page.call(SocketApi.ConfigUnset, { scope, key });
      assert.equal(unset.error?.name, 'HA_ERR_PERMISSION_DENIED', `config/unset ${label(scope, key)}`);
      assert.deepEqual((await read(scope, key)).value, before.value, `${label(scope, key)} unchanged`);
    }
  });

  it('ignores no claim of a page to be the owner: config/set with owner: true is refused', async () => {
    // By name: `owner` is no param of the socket's config/set; a page that sends it anyway is refused.
    const claimed = await page.call(byName(SocketApi.ConfigSet.method), { scope: 'files', key: 'roots', value: ['/'], owner: true });
    assert.ok(claimed.error, JSON.stringify(claimed));
    assert.deepEqual((await read('files', 'roots')).value, []);
  });

  it('refuses approvals/allow over the WebSocket: a rule is a guarded setting too', async () => {
    const answer = await page.call(ApprovalsApi.Allow, { tool: 'exec', prefix: 'curl' });
    assert.equal(answer.error?.name, 'HA_ERR_PERMISSION_DENIED', JSON.stringify(answer));
    assert.deepEqual((await read('approvals', 'rules')).value, []);
  });

  it('still lets the page change a setting that is not guarded', async () => {
    const set = await page.call(SocketApi.ConfigSet, { scope: 'core', key: 'core.log.level', value: 'debug' });
    assert.equal(set.error, undefined, set.error?.message);
    assert.equal((await read('core', 'core.log.level')).value, 'debug');
  });

  it('lets the owner change them with homectl', async () => {
    const set = await runHomectl(['config', 'set', 'approvals:policy', '{"exec":"deny"}'], { socket: live.homed.socket });
    assert.equal(set.code, 0, set.stderr);
    assert.deepEqual((await read('approvals', 'policy')).value, { exec: 'deny' });
    const unset = await runHomectl(['config', 'unset', 'approvals:policy'], { socket: live.homed.socket });
    assert.equal(unset.code, 0, unset.stderr);
    const allow = await runHomectl(['approvals', 'allow', 'exec', 'git status'], { socket: live.homed.socket });
    assert.equal(allow.code, 0, allow.stderr);
  });
});
