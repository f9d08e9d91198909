// The cli socket's bounds against a real homed: slots, idle clients, a client that stops reading, a
// half-closed client, and clients that give up on a stopped cli plugin; the fake LLM is the only stand-in.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { callOnce } from '../../../plugins/cli/client';
import { SocketApi, type PluginStatus } from '../../../protocol';
import { startFakeLlm, type FakeLlm } from '../../fake-llm/server';
import { connectRaw, fakeProviderEnv, runHomectl, startHomed, waitFor, type HomedHandle, type RawSocket } from '../../harness/homed';
import { runWaiter } from '../../harness/waiter';

describe('the cli socket under load, against a real homed', () => {
  let homed: HomedHandle;
  let llm: FakeLlm;
  let cliPid: number | null;
  const ctl = (...args: string[]) => runHomectl(args, { dataDir: homed.dataDir, timeoutMs: 20_000 });
  const setCli = (key: string, value: string) => callOnce(homed.socket, SocketApi.ConfigSet, { scope: 'cli', key, value });
  const cli = async (): Promise<PluginStatus> => {
    const { plugins } = await callOnce(homed.socket, SocketApi.PluginsList, {});
    const found = plugins.find((p) => p.name === 'cli');
    assert.ok(found);
    return found;
  };
  /** A raw client that has been served once (so the server counts it), then sits idle. */
  const servedClient = async (): Promise<RawSocket> => {
    const raw = await connectRaw(homed.socket);
    raw.write('{"id":0,"method":"kernel/status"}\n');
    const answer = await raw.nextAnswer();
    if (!('result' in answer)) {
      raw.close();
      throw new Error(`not served: ${JSON.stringify(answer)}`);
    }
    return raw;
  };

  before(async () => {
    llm = await startFakeLlm();
    homed = await startHomed({
      env: fakeProviderEnv(llm),
    });
    cliPid = (await cli()).pid;
  });
  after(async () => {
    await homed?.cleanup();
    await llm?.close();
  });

  it('64 idle clients do not lock out homectl; with the spare slot taken too, the shared socket refuses with HA_ERR_TOO_MANY_CLIENTS and homectl goes on through its admin socket', async (t) => {
    const idle: RawSocket[] = [];
    t.after(() => idle.forEach((raw) => raw.close()));
    for (let i = 0; i < 64; i++) idle.push(await servedClient());

    const status = await ctl('status');
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, new RegExp(`pid ${homed.pid}\\b`));

    // The spare slot serves no chat: a chat client of the shared socket (another user's waiter) is told why. The
    // owner's own waiter takes the admin socket, as homectl does.
    const say = await connectRaw(homed.socket);
    say.write(`${JSON.stringify({ id: 1, method: SocketApi.ChatSay.method, params: { session: 'cli:spare', text: 'hello' } })}\n`);
    const refusal = await say.nextAnswer();
    say.close();
    assert.match(
      (refusal['error'] as { message?: string } | undefined)?.message ?? '',
      /the slot kept for homectl, which serves admin methods only, not chat\/say; /,
    );
    assert.equal((refusal['error'] as { name?: string } | undefined)?.name, 'HA_ERR_TOO_MANY_CLIENTS');

    // The refused client's connection closes a moment after it read the refusal; then the spare slot is free again.
    const holder = await waitFor(() => servedClient().catch(() => undefined), { what: 'a client in the spare slot' });
    t.after(() => holder.close());
    for (let i = 0; i < 5; i++) {
      // A request keeps the holder from idling out of the spare slot.
      holder.write(`{"id":${i + 1},"method":"kernel/status"}\n`);
      assert.ok('result' in (await holder.nextAnswer()));
      const refused = await connectRaw(homed.socket);
      refused.write('{"id":1,"method":"kernel/status"}\n');
      const line = await refused.nextAnswer();
      refused.close();
      assert.match(
        (line['error'] as { message?: string } | undefined)?.message ?? '',
        /^homed already serves 64 clients \(cli:max_clients\) and the slot kept for homectl is taken; /,
      );
      const admitted = await ctl('status');
      assert.equal(admitted.code, 0, admitted.stderr);
    }
    idle.forEach((raw) => raw.close());
    holder.close();
    await waitFor(async () => (await ctl('status')).code === 0, { what: 'homectl to be served again' });
  });

  it('closes idle clients once cli:idle_timeout is lowered at run time, but not a subscriber', async (t) => {
    const subscriber = await connectRaw(homed.socket);
    t.after(() => subscriber.close());
    subscriber.write('{"id":"sub","method":"chat/subscribe","params":{"session":"idle-test"}}\n');
    await setCli('idle_timeout', '1s');
    t.after(() => setCli('idle_timeout', '5m'));
    // The change applies once the plugin has seen config.changed: a fresh idle client is then closed after 1 s.
    const goodbye = await waitFor(
      async () => {
        const raw = await connectRaw(homed.socket);
        try {
          const line = await raw.nextAnswer(3000);
          return (line['error'] as { name?: string } | undefined)?.name === 'HA_ERR_CLIENT_IDLE' ? line : undefined;
        } finally {
          raw.close();
        }
      },
      { what: 'an idle client to be closed', timeoutMs: 20_000 },
    );
    assert.match((goodbye['error'] as { message: string }).message, /^closed after 1 s with no request \(cli:idle_timeout\)/);
    // The subscriber was connected all along, longer than the timeout, and is still served.
    assert.equal(subscriber.isClosed(), false);
    subscriber.write('{"id":"ping","method":"kernel/status"}\n');
    assert.equal((await subscriber.nextAnswer())['id'], 'ping');
  });

  it('disconnects a client that stops reading a big answer, alone: another is served, the cli plugin keeps its pid', async (t) => {
    await setCli('output_max_mb', '1');
    t.after(() => setCli('output_max_mb', '32'));
    // The whole answer, not cut at the agent's answer cap (1,000,000 characters), so it passes the client's 1 MB.
    await callOnce(homed.socket, SocketApi.ConfigSet, { scope: 'core', key: 'core.agent.max_answer_chars', value: 5_000_000 });
    t.after(() => callOnce(homed.socket, SocketApi.ConfigSet, { scope: 'core', key: 'core.agent.max_answer_chars', value: 1_000_000 }));
    // About 2 MB of answer, in 32 KB deltas.
    llm.enqueue({ chunks: Array.from({ length: 64 }, () => 'lorem ipsum '.repeat(2730)) });
    const stuck = await connectRaw(homed.socket);
    t.after(() => stuck.close());
    stuck.pause();
    // The setting applies once the plugin has seen config.changed, and says so.
    await waitFor(() => homed.logs().some((line) => line['msg'] === 'socket settings changed' && line['maxOutputBytes'] === 1048576), {
      what: 'the new cap applied',
    });
    stuck.write('{"id":1,"method":"chat/say","params":{"session":"big","text":"say a lot"}}\n');
    const served = await ctl('status');
    assert.equal(served.code, 0, served.stderr);

    await waitFor(() => homed.output().includes('disconnected a client of the socket: its unsent output reached'), {
      what: 'the stuck client to be disconnected',
      timeoutMs: 30_000,
    });
    stuck.resume();
    await stuck.closed;
    const again = await ctl('status');
    assert.equal(again.code, 0, again.stderr);
    const now = await cli();
    assert.equal(now.pid, cliPid);
    assert.equal(now.state, 'ready');
    assert.equal(now.restarts, 0);
  });

  it('answers a client that half-closed after its request', async (t) => {
    const raw = await connectRaw(homed.socket);
    t.after(() => raw.close());
    raw.write('{"id":"half","method":"kernel/status"}\n');
    raw.end();
    const answer = await raw.nextAnswer();
    assert.equal(answer['id'], 'half');
    assert.equal((answer['result'] as { pid: number }).pid, homed.pid);
    await raw.closed;
  });

  it('homectl and waiter give up with a clear message while the cli plugin is stopped (SIGSTOP)', async (t) => {
    const pid = (await cli()).pid as number;
    process.kill(pid, 'SIGSTOP');
    let resumed = false;
    const resume = (): void => {
      if (!resumed) process.kill(pid, 'SIGCONT');
      resumed = true;
    };
    t.after(resume);
    try {
      const started = Date.now();
      const status = await ctl('status', '--timeout', '1');
      assert.equal(status.code, 3, status.stderr);
      assert.match(status.stderr, /^homectl: homed did not answer kernel\/status within 1 s; is it busy or stuck\? see homed's log \(journalctl -u homed/);
      assert.ok(Date.now() - started < 15_000, 'it gave up long before the kernel would kill the stopped plugin');
      const say = await runWaiter(['-data', homed.dataDir, '--timeout', '1', '-say', 'hello']);
      assert.equal(say.code, 3, say.stderr);
      assert.match(say.stderr, /^waiter: homed did not answer chat\/say within 1 s; is it busy or stuck\?/);
    } finally {
      resume();
    }
    await waitFor(async () => (await cli()).state === 'ready', { what: 'the cli plugin to answer again', timeoutMs: 30_000 });
  });
});
