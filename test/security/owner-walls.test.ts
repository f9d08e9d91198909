// Whatever widens what the agent may do is the owner's alone, at the machine: only calls through the cli plugin's
// admin socket (homectl, and waiter run as homed's user) are the owner's. Before, the shared socket counted as the
// owner's too, so with cli:socket_access group any member of the group changed guarded settings; approvals/allow and
// approvals/revoke lost the caller through client/call; an "always" answer from the page added a rule; and the page
// installed a package that asked for `admin`. Each is attacked here over the shared socket (as another uid in homed's
// group, and as homed's own user) and over the page's WebSocket; homectl still does each.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { promisify } from 'node:util';
import { HomedClient, callOnce } from '../../plugins/cli/client';
import { adminSocketInDataDir } from '../../plugins/cli/locate';
import {
  ApprovalsApi,
  SocketApi,
  WEBUI_PACKAGES_PATH,
  type WebuiPackageSummary,
  type ConfigEntry,
  type PendingAsk,
  type PendingParams,
  type PendingResult,
  type RequestDescriptor,
} from '../../protocol';
import { packPlugin } from '../../scripts/pack/pack';
import { startFakeLlm, type FakeLlm } from '../fake-llm/server';
import { fakeProviderEnv, FIXTURE_PLUGINS, makeTempDir, REPO_ROOT, runHomectl, waitFor } from '../harness/homed';
import { checkoutUnreadableBy } from '../harness/other-uid';
import { openPageSocket, signInLive, startLiveWebui, type LiveWebui, type PageAnswer, type PageSocket } from '../plugins/webui/live';
import { byName } from '../harness/by-name';

/** A uid that is not homed's (nobody), made a member of homed's group for the attack. */
const MEMBER_UID = 65_534;
/** Long enough for a 2-core machine to show and answer a question; nothing here waits it out. */
const QUESTION_TIMEOUT_MS = 60_000;
const CLIENT_JS = path.join(REPO_ROOT, 'dist', 'plugins', 'cli', 'client.js');

type Answer<R = unknown> = PageAnswer<R>;
/** A question as a client sees it, with the command that makes it last when "always" is not offered. */
type Offered = PendingAsk & { ownerCommand?: string };

describe('only the owner at the machine widens what the agent may do', () => {
  let llm: FakeLlm;
  let live: LiveWebui;
  let page: PageSocket;
  let cookie: string;
  let admin: string;
  let work: string;

  before(async () => {
    llm = await startFakeLlm();
    live = await startLiveWebui({ plugins: ['calculator'], env: fakeProviderEnv(llm) });
    cookie = await signInLive(live);
    page = await openPageSocket(live, cookie);
    admin = adminSocketInDataDir(live.homed.dataDir);
    await callOnce(admin, SocketApi.ConfigSet, { scope: 'approvals', key: 'timeout', value: QUESTION_TIMEOUT_MS });
    work = makeTempDir('owner-');
  });
  after(async () => {
    page?.close();
    await live?.homed.cleanup();
    await llm?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  const read = async (scope: string, key: string): Promise<ConfigEntry> => (await callOnce(admin, SocketApi.ConfigGet, { scope, key })).entry;
  /** One request over the shared socket as homed's own user: the shared socket is not the owner's, whoever connects. */
  const shared = async <P, R>(descriptor: RequestDescriptor<P, R>, params: NoInfer<P>): Promise<Answer<R>> => {
    try {
      return { result: await callOnce(live.homed.socket, descriptor, params) };
    } catch (error) {
      const answer = (error as { error?: { message: string; name?: string } }).error;
      return { error: answer ?? { message: (error as Error).message } };
    }
  };

  /** Why this machine cannot run a second uid against the shared socket, or undefined when it can. */
  function memberSkip(): string | undefined {
    if (process.geteuid?.() !== 0) return 'needs root to run a process as another uid';
    return checkoutUnreadableBy(MEMBER_UID);
  }

  /** Opens the shared socket to homed's group (cli:socket_access group, the data dir reachable by the group). */
  async function openToGroup(t: TestContext): Promise<void> {
    const dataMode = fs.statSync(live.homed.dataDir).mode & 0o777;
    fs.chmodSync(live.homed.dataDir, dataMode | 0o010);
    await callOnce(admin, SocketApi.ConfigSet, { scope: 'cli', key: 'socket_access', value: 'group' });
    await waitFor(() => (fs.statSync(live.homed.socket).mode & 0o777) === 0o660, { what: 'the shared socket to be 0660' });
    t.after(async () => {
      await callOnce(admin, SocketApi.ConfigSet, { scope: 'cli', key: 'socket_access', value: 'owner' });
      fs.chmodSync(live.homed.dataDir, dataMode);
    });
  }

  /** One request over the shared socket from a process of another uid that is a member of homed's group. */
  async function asMember<P, R>(descriptor: RequestDescriptor<P, R>, params: NoInfer<P>): Promise<Answer<R>> {
    // The call crosses into a process of another uid as a script, so the descriptor goes there as its plain data.
    const script =
      `require(${JSON.stringify(CLIENT_JS)}).callOnce(${JSON.stringify(live.homed.socket)}, ${JSON.stringify(descriptor)}, ${JSON.stringify(params)})` +
      '.then((result) => console.log(JSON.stringify({ result })), (e) => console.log(JSON.stringify({ error: e.error ?? { message: e.message, name: e.name } })))';
    const gid = process.getegid?.() ?? 0;
    const { stdout } = await promisify(execFile)(
      'setpriv',
      [`--reuid=${MEMBER_UID}`, `--regid=${MEMBER_UID}`, `--groups=${gid}`, '--', process.execPath, '-e', script],
      { timeout: 30_000 },
    );
    return JSON.parse(stdout) as Answer<R>;
  }

  it('a member of the group on the shared socket cannot change a guarded setting; homectl can', async (t) => {
    const skip = memberSkip();
    if (skip) return t.skip(skip);
    await openToGroup(t);
    const status = await asMember(SocketApi.KernelStatus, {});
    assert.equal(status.error, undefined, `the member reaches the shared socket: ${JSON.stringify(status)}`);

    const set = await asMember(SocketApi.ConfigSet, { scope: 'web', key: 'allow_private', value: ['0.0.0.0/0'] });
    assert.equal(set.error?.name, 'HA_ERR_PERMISSION_DENIED', JSON.stringify(set));
    assert.ok(set.error.message.includes('homectl config set web:allow_private'), set.error.message);
    const unset = await asMember(SocketApi.ConfigUnset, { scope: 'approvals', key: 'policy' });
    assert.equal(unset.error?.name, 'HA_ERR_PERMISSION_DENIED', JSON.stringify(unset));
    assert.deepEqual((await read('web', 'allow_private')).isSet, false);

    const owner = await runHomectl(['config', 'set', 'web:allow_private', '["10.9.8.0/24"]'], { socket: live.homed.socket });
    assert.equal(owner.code, 0, owner.stderr);
    assert.deepEqual((await read('web', 'allow_private')).value, ['10.9.8.0/24']);
    assert.equal((await runHomectl(['config', 'unset', 'web:allow_private'], { socket: live.homed.socket })).code, 0);
  });

  it('approvals/allow and approvals/revoke are refused to the shared socket, a member of the group and the page; homectl does both', async (t) => {
    const rule = { tool: 'exec', prefix: 'curl' };
    const refusals: [string, Answer][] = [
      ['the shared socket', await shared(ApprovalsApi.Allow, rule)],
      ['the page', await page.call(ApprovalsApi.Allow, rule)],
    ];
    if (!memberSkip()) {
      await openToGroup(t);
      refusals.push(['a member of the group', await asMember(ApprovalsApi.Allow, rule)]);
    }
    for (const [who, answer] of refusals) {
      assert.equal(answer.error?.name, 'HA_ERR_PERMISSION_DENIED', `${who}: ${JSON.stringify(answer)}`);
      assert.match(answer.error.message, /approvals\/allow widens what the agent may do, so only the owner runs it, .*homectl/, who);
    }
    assert.deepEqual((await callOnce(admin, ApprovalsApi.List, {})).rules, []);

    const added = await runHomectl(['approvals', 'allow', 'exec', 'git', 'status'], { socket: live.homed.socket });
    assert.equal(added.code, 0, added.stderr);
    const [kept] = (await callOnce(admin, ApprovalsApi.List, {})).rules;
    assert.ok(kept, 'homectl added the rule');
    for (const [who, answer] of [
      ['the shared socket', await shared(ApprovalsApi.Revoke, { id: kept.id })],
      ['the page', await page.call(ApprovalsApi.Revoke, { id: kept.id })],
      ...(memberSkip() ? [] : [['a member of the group', await asMember(ApprovalsApi.Revoke, { id: kept.id })] as const]),
    ] as const) {
      assert.equal(answer.error?.name, 'HA_ERR_PERMISSION_DENIED', `${who}: ${JSON.stringify(answer)}`);
    }
    assert.equal((await callOnce(admin, ApprovalsApi.List, {})).rules.length, 1, 'the rule is still there');
    const revoked = await runHomectl(['approvals', 'revoke', kept.id], { socket: live.homed.socket });
    assert.equal(revoked.code, 0, revoked.stderr);
  });

  it('"always" is offered to the owner alone: the page and the shared socket see the homectl command and are refused it', async () => {
    const session = 'cli:owner-always';
    llm.enqueue({ toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] }, { text: 'It is 5.' });
    const asker = await HomedClient.connect(live.homed.socket);
    try {
      const saying = asker.call(SocketApi.ChatSay, { session, text: 'what is 2 + 3?' }, { timeoutMs: 90_000 });
      const pendingOn = async (
        call: (descriptor: typeof SocketApi.ApprovalPending, params: PendingParams) => Promise<Answer<PendingResult>>,
      ): Promise<Offered | undefined> => (await call(SocketApi.ApprovalPending, { session })).result?.pending[0];
      const onPage = await waitFor(() => pendingOn((d, p) => page.call(d, p)), { what: 'the question on the page', timeoutMs: 30_000 });
      assert.deepEqual(onPage.choices, ['yes', 'no'], 'the page is not offered "always"');
      assert.equal(onPage.ownerCommand, 'homectl approvals allow add', 'the page is told the command that makes it last');
      assert.deepEqual((await pendingOn(shared))?.choices, ['yes', 'no'], 'nor is the shared socket');
      const ownView = (await callOnce(admin, SocketApi.ApprovalPending, { session })).pending[0];
      assert.deepEqual(ownView?.choices, ['yes', 'no', 'always'], 'the owner is offered "always"');

      const fromPage = await page.call(SocketApi.ApprovalAnswer, { id: onPage.id, choice: 'always' });
      assert.equal(fromPage.error?.name, 'HA_ERR_PERMISSION_DENIED', JSON.stringify(fromPage));
      assert.match(
        fromPage.error.message,
        /"always" widens what the agent may do, so only the owner gives it, on the machine running homed.*answer yes or no here, and make it last with: homectl approvals allow add/,
      );
      // By name: `owner` is no param of the socket's approvals/answer; a page that sends it anyway is refused.
      const claimed = await page.call(byName(SocketApi.ApprovalAnswer.method), { id: onPage.id, choice: 'always', owner: true });
      assert.ok(claimed.error, `a page's claim to be the owner is refused: ${JSON.stringify(claimed)}`);
      const fromShared = await shared(SocketApi.ApprovalAnswer, { id: onPage.id, choice: 'always' });
      assert.equal(fromShared.error?.name, 'HA_ERR_PERMISSION_DENIED', JSON.stringify(fromShared));
      assert.deepEqual((await callOnce(admin, ApprovalsApi.List, {})).rules, [], 'no rule was added');

      await callOnce(admin, SocketApi.ApprovalAnswer, { id: onPage.id, choice: 'always' });
      assert.equal((await saying).text, 'It is 5.');
      const rules = (await callOnce(admin, ApprovalsApi.List, {})).rules;
      assert.deepEqual(
        rules.map((r) => [r.tool, r.added_by]),
        [['add', 'always']],
        "the owner's always added the rule",
      );
      assert.equal((await runHomectl(['approvals', 'revoke', rules[0]!.id], { socket: live.homed.socket })).code, 0);
    } finally {
      asker.close();
    }
  });

  it('the approvals guard is not stopped or disabled from the page or the shared socket; homectl can', async () => {
    for (const action of ['stop', 'disable'] as const) {
      for (const [who, answer] of [
        ['the page', await page.call(SocketApi.PluginsControl, { name: 'approvals', action })],
        ['the shared socket', await shared(SocketApi.PluginsControl, { name: 'approvals', action })],
      ] as const) {
        assert.equal(answer.error?.name, 'HA_ERR_PERMISSION_DENIED', `${action} from ${who}: ${JSON.stringify(answer)}`);
        assert.match(
          answer.error.message,
          new RegExp(
            `plugin "approvals" guards every tool call \\(before_toolcall\\): .*tools would run unasked, so only the owner does it, .*homectl plugins ${action} approvals`,
          ),
        );
      }
    }
    const state = async (): Promise<string> => (await callOnce(admin, SocketApi.PluginsInfo, { name: 'approvals' })).plugin.state;
    assert.equal(await state(), 'ready', 'the guard still stands');
    const page2 = await page.call(SocketApi.PluginsControl, { name: 'approvals', action: 'restart' });
    assert.equal(page2.error, undefined, `a restart brings it back at once, so the page may: ${JSON.stringify(page2)}`);

    const stopped = await runHomectl(['plugins', 'stop', 'approvals'], { socket: live.homed.socket });
    assert.equal(stopped.code, 0, stopped.stderr);
    const started = await runHomectl(['plugins', 'start', 'approvals'], { socket: live.homed.socket });
    assert.equal(started.code, 0, started.stderr);
    await waitFor(async () => (await state()) === 'ready', { what: 'the approvals plugin to be ready again', timeoutMs: 30_000 });
  });

  it('a package asking for admin is refused to the page (over its WebSocket and its upload) and the shared socket, with the homectl command; homectl installs it', async () => {
    const src = path.join(work, 'boss');
    fs.cpSync(path.join(FIXTURE_PLUGINS, 'good'), src, { recursive: true });
    const manifest = JSON.parse(fs.readFileSync(path.join(src, 'plugin.json'), 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(path.join(src, 'plugin.json'), JSON.stringify({ ...manifest, name: 'boss', author: 'HomeAgent tests', permissions: ['events', 'admin'] }));
    const file = (await packPlugin(src, work)).file;

    const inspected = await page.call(SocketApi.PluginsInstall, { file, inspectOnly: true });
    assert.equal(inspected.error, undefined, `the page may look at it: ${JSON.stringify(inspected)}`);
    const { sha256 } = inspected.result!;
    for (const [who, answer] of [
      ['the page', await page.call(SocketApi.PluginsInstall, { file, sha256 })],
      ['the shared socket', await shared(SocketApi.PluginsInstall, { file, sha256 })],
    ] as const) {
      assert.equal(answer.error?.name, 'HA_ERR_PERMISSION_DENIED', `${who}: ${JSON.stringify(answer)}`);
      assert.match(
        answer.error.message,
        /package "boss" asks for "admin", which only the owner grants, on the machine running homed; nothing was installed.*homectl plugins install /,
        who,
      );
    }
    // By name: `owner` is no param of the socket's plugins/install; a page that sends it anyway is refused.
    const claimed = await page.call(byName(SocketApi.PluginsInstall.method), { file, sha256, owner: true });
    assert.ok(claimed.error, `a page's claim to be the owner is refused: ${JSON.stringify(claimed)}`);

    // The Plugins page's own way: upload the .hmap, then Install.
    const headers = { origin: live.origin, cookie };
    const bytes = fs.readFileSync(file);
    const uploaded = await fetch(`${live.origin}${WEBUI_PACKAGES_PATH}?name=${path.basename(file)}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) },
      body: bytes,
    });
    assert.equal(uploaded.status, 200, await uploaded.clone().text());
    const { id } = (await uploaded.json()) as WebuiPackageSummary;
    const install = await fetch(`${live.origin}${WEBUI_PACKAGES_PATH}/${id}/install`, { method: 'POST', headers });
    const body = (await install.json()) as { error?: string; code?: string };
    assert.equal(install.status, 403, JSON.stringify(body));
    assert.equal(body.code, 'HA_ERR_PERMISSION_DENIED');
    assert.match(
      body.error ?? '',
      new RegExp(`package "boss" asks for "admin", which only the owner grants.*homectl plugins install ${path.basename(file).replace(/\./g, '\\.')}`),
    );
    assert.ok(!fs.existsSync(path.join(live.homed.dataDir, 'plugins', 'boss')), 'nothing was installed');

    const installed = await runHomectl(['plugins', 'install', file, '--yes'], { socket: live.homed.socket });
    assert.equal(installed.code, 0, installed.stderr);
    assert.ok(fs.existsSync(path.join(live.homed.dataDir, 'plugins', 'boss', 'plugin.json')), 'homectl installed it');
    assert.equal((await runHomectl(['plugins', 'remove', 'boss'], { socket: live.homed.socket })).code, 0);
  });
});
