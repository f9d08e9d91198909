// The end-to-end harness itself: it must fail fast and loudly when homed cannot start.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { callOnce } from '../../plugins/cli/client';
import { makeTempDir, pidAlive, startHomed, waitFor } from './homed';
import { SocketApi } from '../../protocol';

describe('startHomed', () => {
  it("rejects at once with homed's output when homed exits before it is ready", async (t) => {
    const dir = makeTempDir();
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const notADir = path.join(dir, 'file');
    fs.writeFileSync(notADir, '');
    const started = Date.now();
    await assert.rejects(startHomed({ dataDir: notADir, timeoutMs: 60_000 }), (error: Error) => {
      assert.match(error.message, /homed exited with code 1 before it was ready/);
      assert.match(error.message, /--- homed output ---\n.*homed: /s);
      return true;
    });
    assert.ok(Date.now() - started < 30_000, 'startHomed waited for its timeout instead of noticing the exit');
  });

  it('stop() ends homed and its plugins, kill9() too', async () => {
    const homed = await startHomed();
    try {
      const { plugins } = await callOnce(homed.socket, SocketApi.PluginsList, {});
      const pluginPids = plugins.map((p) => p.pid).filter((pid): pid is number => pid !== null);
      assert.ok(pluginPids.length > 0 && pluginPids.every(pidAlive));
      assert.equal(await homed.stop(), 0);
      assert.equal(pidAlive(homed.pid), false);
      await waitFor(() => pluginPids.every((pid) => !pidAlive(pid)), { what: 'every plugin process to be gone' });
    } finally {
      await homed.cleanup();
    }
    assert.equal(fs.existsSync(homed.dataDir), false, 'cleanup() left the temp data dir');
    const second = await startHomed();
    await second.kill9();
    await waitFor(() => !pidAlive(second.pid), { what: 'the killed homed to be gone' });
    await second.cleanup();
  });
});
