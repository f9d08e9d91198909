// Rung 3: messages over the wire's body cap, both ways, between an in-process kernel and real plugin hosts;
// and a plugin host that gets a frame it cannot read exits at once, says why, and is restarted.
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ErrorCodes, EventDeliverNotification, ToolInvokeRequest, type PluginStatus } from '../../../protocol';
import { WIRE_ERROR_EXIT_CODE } from '../../../protocol/runtime/wire';
import { FAST_POLICY, pidAlive, startTestKernel, type TestKernel } from '../kernel-harness';
import { waitFor } from '../../harness/wait';

const MB5 = 5_000_000;

/** Facts of an error a fixture tool caught and reported. */
interface Caught {
  code: number;
  message: string;
  data: { name: string; method: string; bytes: number; cap: number };
}

function assertTooLarge(error: Caught | undefined, method: string, cap: number): void {
  assert.ok(error, 'an error was reported');
  assert.equal(error.code, ErrorCodes.MessageTooLarge, error.message);
  assert.equal(error.data.name, 'HA_ERR_MESSAGE_TOO_LARGE');
  assert.equal(error.data.method, method);
  assert.equal(error.data.cap, cap);
  assert.ok(error.data.bytes > cap);
}

/** The kernel and one plugin, with helpers to call its tools and read its state. */
function pluginOf(kernel: () => TestKernel, name: string) {
  const status = (): PluginStatus => kernel().kernel.supervisor.get(name).status();
  const channel = () => {
    const proc = kernel().kernel.supervisor.get(name).process;
    assert.ok(proc, `${name} has a running process`);
    return proc.channel;
  };
  const call = async (tool: string, args: object = {}, timeoutMs = 5000): Promise<unknown> =>
    (await channel().call(ToolInvokeRequest, { name: tool, args }, timeoutMs)).result;
  return { status, channel, call };
}

describe('messages over the 4 MiB body cap', () => {
  let t: TestKernel;
  const big = pluginOf(() => t, 'big-payloads');
  const cap = 4 * 1024 * 1024;
  let pid: number;

  before(async () => {
    t = await startTestKernel(['big-payloads'], FAST_POLICY);
    pid = (await big.call('pid')) as number;
  });
  after(async () => {
    await t?.close();
  });

  /** The plugin kept its process and its state through whatever the test sent. */
  const assertUnharmed = async (): Promise<void> => {
    assert.equal(await big.call('pid'), pid, 'same process');
    assert.equal(big.status().state, 'ready');
    assert.equal(big.status().restarts, 0);
  };

  test('kernel → plugin: a request over the cap fails at once and is never sent', async () => {
    const started = Date.now();
    await assert.rejects(big.call('pid', { blob: 'x'.repeat(MB5) }), (error: Caught) => {
      assertTooLarge(error, 'tool/invoke', cap);
      assert.match(error.message, /^tool\/invoke request is 4\.\d MiB, more than the 4 MiB one message between homed and a plugin may carry/);
      return true;
    });
    assert.ok(Date.now() - started < 1000, `failed after ${Date.now() - started} ms, not at the request deadline`);
    await assertUnharmed();
  });

  test('kernel → plugin: a notification over the cap throws at once and is never sent', async () => {
    const event = { name: 'test.big', source: 'kernel', data: 'd'.repeat(MB5), at: Date.now() };
    assert.throws(
      () => big.channel().notify(EventDeliverNotification, event),
      (error: Caught) => {
        assertTooLarge(error, 'events/deliver', cap);
        return true;
      },
    );
    await assertUnharmed();
  });

  test('plugin → kernel: a tool result over the cap becomes an error answer for that call', async () => {
    await assert.rejects(big.call('big_result', { bytes: MB5 }), (error: Caught) => {
      assertTooLarge(error, 'tool/invoke', cap);
      assert.match(error.message, /^the answer to tool\/invoke is 4\.\d MiB, .* ask for less in one call$/);
      return true;
    });
    assert.equal(((await big.call('big_result', { bytes: 1000 })) as string).length, 1000);
    await assertUnharmed();
  });

  test('plugin → kernel: a notification over the cap throws in the plugin, a request over it is rejected there', async () => {
    const published = (await big.call('publish_big', { bytes: MB5 })) as { thrown?: Caught };
    assertTooLarge(published.thrown, 'events/publish', cap);
    const set = (await big.call('set_big', { bytes: MB5 })) as { rejected?: Caught };
    assertTooLarge(set.rejected, 'config/set', cap);
    assert.match(set.rejected!.message, /^config\/set request is 4\.\d MiB, .* keep big data in a file and pass its path$/);
    await assertUnharmed();
  });
});

describe('a smaller cap set by the owner (core.wire.max_body_bytes) holds at both ends', () => {
  let t: TestKernel;
  const big = pluginOf(() => t, 'big-payloads');
  const cap = 256 * 1024;

  before(async () => {
    t = await startTestKernel(['big-payloads'], { ...FAST_POLICY, wire: { maxBodyBytes: cap } });
  });
  after(async () => {
    await t?.close();
  });

  test("the kernel's answer over it becomes an error answer naming config/get; the plugin refuses to send over it", async () => {
    const pid = await big.call('pid');
    assert.equal(big.channel().maxBodyBytes, cap, 'a sender in the kernel can read the cap to split its payloads');
    t.kernel.config.set('big-payloads', 'blob', 'k'.repeat(600_000));
    const read = (await big.call('get_setting', { key: 'blob' })) as { rejected?: Caught };
    assertTooLarge(read.rejected, 'config/get', cap);
    assert.match(read.rejected!.message, /^the answer to config\/get is 58\d\.\d KiB, more than the 256 KiB/);
    // Over the owner's cap but under the default: the host knows the owner's cap, so it refuses rather than send.
    await assert.rejects(big.call('big_result', { bytes: 300_000 }), (error: Caught) => {
      assertTooLarge(error, 'tool/invoke', cap);
      return true;
    });
    assert.equal(await big.call('pid'), pid, 'same process: nothing over the cap crossed the wire');
    assert.equal(big.status().last_exit, null);
  });
});

describe('a plugin host that reads a frame it cannot parse', () => {
  let t: TestKernel;
  const good = pluginOf(() => t, 'good');
  // Heartbeats would only kill the host after 30 s: the exit seen here is the host's own.
  const policy = { ...FAST_POLICY, heartbeat: { intervalMs: 200, timeoutMs: 400, killAfterMs: 30_000 } };

  before(async () => {
    t = await startTestKernel(['good'], policy);
  });
  after(async () => {
    await t?.close();
  });

  /** Writes raw bytes onto the kernel's end of the plugin's wire, as a broken kernel would. */
  const corruptWire = (bytes: string): number => {
    const proc = t.kernel.supervisor.get('good').process!;
    (proc.child.stdio[3] as Socket).write(bytes);
    return proc.pid;
  };

  const cases = [
    { frame: 'Content-Length: 99999999\r\n\r\n', reason: /frame announces 99999999 bytes, more than the 4194304 byte cap/ },
    { frame: 'Content-Length: 9\r\n\r\nnot json!', reason: /frame body is not JSON: "not json!"/ },
  ];
  for (const [index, { frame, reason }] of cases.entries()) {
    test(`exits at once with code ${WIRE_ERROR_EXIT_CODE}, is reported as wire-error with the reason, and restarts (${index + 1})`, async () => {
      await waitFor(() => good.status().state === 'ready', { what: 'good to be ready' });
      const started = Date.now();
      const oldPid = corruptWire(frame);
      const s = await waitFor(() => good.status().restarts === index + 1 && good.status(), { what: 'the wire error exit', timeoutMs: 10_000 });
      const took = Date.now() - started;
      assert.ok(took < 5000, `exited after ${took} ms, long before any heartbeat deadline`);
      assert.equal(s.last_exit?.reason, 'wire-error');
      assert.equal(s.last_exit?.code, WIRE_ERROR_EXIT_CODE);
      assert.match(s.last_exit?.detail ?? '', reason, 'last_exit says why');
      const logs = t.kernel.supervisor
        .get('good')
        .logs.tail(20)
        .map((line) => line.msg)
        .join('\n');
      assert.match(logs, reason, 'the host said why on stderr');
      assert.match(
        logs,
        new RegExp(`process ${oldPid} could not read a frame from homed and exited: .*${reason.source}`),
        'the kernel logged it with the reason',
      );
      await waitFor(() => good.status().state === 'ready', { what: 'good to be back' });
      assert.notEqual(good.status().pid, oldPid);
      assert.equal(pidAlive(oldPid), false);
      assert.ok(Array.isArray(await good.call('seen')), 'the new process answers');
    });
  }
});
