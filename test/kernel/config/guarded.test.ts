// Guarded settings through the SDK: a config write changes one only when it carries `owner` from a built-in plugin
// granted `config.guarded` (the cli, for homectl); `admin` alone, a package asking for `config.guarded`, or a
// write without `owner` is refused, naming the homectl command.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConfigGetRequest, ConfigSetRequest, ConfigUnsetRequest, ErrorCodes } from '../../../protocol';
import { inject, refusal, type Injected, type InjectIdentity } from '../../harness/inject';
import { startTestKernel, type TestKernel } from '../kernel-harness';

const KEY = { scope: 'core', key: 'core.knowledge.path' } as const;

describe('a guarded setting through the SDK', () => {
  let t: TestKernel;
  const opened: Injected[] = [];
  const as = (identity: InjectIdentity): Injected => {
    const plugin = inject(t.kernel, identity);
    opened.push(plugin);
    return plugin;
  };
  before(async () => {
    t = await startTestKernel([]);
  });
  after(async () => {
    for (const plugin of opened) plugin.close();
    await t?.close();
  });

  const current = async (): Promise<unknown> => (await as({ name: 'reader', permissions: ['admin'] }).client.call(ConfigGetRequest, KEY)).entry.value;

  it('is changed by a built-in plugin granted config.guarded, for a call it marks as the owner’s', async () => {
    const cli = as({ name: 'cli', permissions: ['admin', 'config.guarded'], kind: 'builtin' });
    const { entry } = await cli.client.call(ConfigSetRequest, { ...KEY, value: '/srv/knowledge', owner: true });
    assert.equal(entry.value, '/srv/knowledge');
    assert.equal(entry.def?.guarded, true);
    assert.equal((await cli.client.call(ConfigUnsetRequest, { ...KEY, owner: true })).removed, true);
  });

  it('is refused without owner, even to the cli: the page’s and a bridge’s writes carry none', async () => {
    const cli = as({ name: 'cli', permissions: ['admin', 'config.guarded'], kind: 'builtin' });
    const set = await refusal(cli.client.call(ConfigSetRequest, { ...KEY, value: '/' }));
    assert.equal(set.code, ErrorCodes.PermissionDenied);
    assert.match(set.message, /is guarded: .*homectl config set core\.knowledge\.path VALUE$/);
    const unset = await refusal(cli.client.call(ConfigUnsetRequest, KEY));
    assert.equal(unset.code, ErrorCodes.PermissionDenied);
    assert.notEqual(await current(), '/');
  });

  it('is refused to admin alone (the webui plugin) and to a package that asks for config.guarded', async () => {
    const webui = as({ name: 'webui', permissions: ['admin'], kind: 'builtin' });
    const plain = await refusal(webui.client.call(ConfigSetRequest, { ...KEY, value: '/', owner: true }));
    assert.equal(plain.code, ErrorCodes.PermissionDenied);
    assert.match(plain.message, /needs the permission "config\.guarded", which its manifest does not grant/);
    const pkg = as({ name: 'sneaky', permissions: ['admin', 'config.guarded'], kind: 'js' });
    const asked = await refusal(pkg.client.call(ConfigSetRequest, { ...KEY, value: '/', owner: true }));
    assert.equal(asked.code, ErrorCodes.PermissionDenied);
    assert.match(asked.message, /which only a built-in plugin holds/);
    assert.equal(pkg.caller.deniedCalls, 1);
    assert.notEqual(await current(), '/');
  });
});
