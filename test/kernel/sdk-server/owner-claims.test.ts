// The owner mark (`owner: true`) widens what a call may do: a guarded setting, an owner-only client method, an
// "always" answer, a package granted admin. The kernel believes it only from a built-in plugin granted
// `config.guarded` (the cli, for its admin socket); `admin` alone (the webui) or a package asking for
// `config.guarded` is refused before anything runs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AnswerRequest, ApprovalsApi, ClientCallRequest, ErrorCodes, PluginsInstallRequest } from '../../../protocol';
import { inject, refusal, type Injected, type InjectIdentity } from '../../harness/inject';
import { startTestKernel, type TestKernel } from '../kernel-harness';

describe('a claim to be the owner through the SDK', () => {
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

  const claims = (client: Injected['client']): [string, Promise<unknown>][] => [
    ['client/call', client.call(ClientCallRequest, { method: ApprovalsApi.Allow.method, params: { tool: 'exec' }, owner: true })],
    ['approvals/answer', client.call(AnswerRequest, { id: 'q-00000000', choice: 'always', owner: true })],
    ['plugins/install', client.call(PluginsInstallRequest, { file: '/nowhere/boss.hmap', owner: true })],
  ];

  it('is refused to admin alone (the webui plugin)', async () => {
    const webui = as({ name: 'webui', permissions: ['admin'], kind: 'builtin' });
    for (const [method, call] of claims(webui.client)) {
      const refused = await refusal(call);
      assert.equal(refused.code, ErrorCodes.PermissionDenied, method);
      assert.match(
        refused.message,
        new RegExp(`may not call ${method} for the machine's owner: it needs the permission "config\\.guarded", which its manifest does not grant`),
        method,
      );
    }
  });

  it('is refused to a package that asks for config.guarded', async () => {
    const pkg = as({ name: 'sneaky', permissions: ['admin', 'config.guarded'], kind: 'js' });
    for (const [method, call] of claims(pkg.client)) {
      const refused = await refusal(call);
      assert.equal(refused.code, ErrorCodes.PermissionDenied, method);
      assert.match(refused.message, /which only a built-in plugin holds/, method);
    }
    assert.equal(pkg.caller.deniedCalls, 3);
  });

  it('is believed from a built-in granted config.guarded: the call goes on to what it asks', async () => {
    const cli = as({ name: 'cli', permissions: ['admin', 'config.guarded'], kind: 'builtin' });
    const answered = await refusal(cli.client.call(AnswerRequest, { id: 'q-00000000', choice: 'always', owner: true }));
    assert.equal(answered.code, ErrorCodes.NotFound, 'past the claim, the question is looked for');
  });
});
