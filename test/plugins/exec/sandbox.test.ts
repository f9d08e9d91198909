// The sandbox's walls (homed as root): a fork bomb bounded by the process limit and killed, writes outside the
// roots contained, no network without exec:network, and the command's own uid. Skipped without root.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { waitFor } from '../../harness/wait';
import { EXEC_UID, execBench, sandboxSkip, processesOf } from './helpers';

describe('the exec sandbox', { skip: sandboxSkip }, () => {
  it('runs the command as its own uid in its own pid namespace, with a private /tmp', async (t) => {
    const bench = execBench(t, 'overlay');
    const marker = path.join('/tmp', `exec-private-${process.pid}`);
    const { result } = await bench.exec({ command: `id -u; id -g; echo $$; touch ${marker} && echo wrote; ls /proc | grep -c '^[0-9]'` });
    const [uid, gid, , wrote, procs] = result.output.trim().split('\n');
    assert.deepEqual([uid, gid, wrote], [String(EXEC_UID), String(EXEC_UID), 'wrote']);
    assert.ok(Number(procs) < 10, `${procs} processes visible`);
    assert.equal(fs.existsSync(marker), false, 'the private /tmp went with the command');
  });

  it('bounds a fork bomb with the process limit and kills it all at the timeout', async (t) => {
    const bench = execBench(t, 'overlay', { nproc: 40 });
    let most = 0;
    const sampler = setInterval(() => (most = Math.max(most, processesOf(EXEC_UID))), 20);
    t.after(() => clearInterval(sampler));
    // The first sleep is seen by the sampler however fast the bomb then dies (its shell may fail to fork at once).
    const { result } = await bench.exec({ command: 'sleep 0.3; bomb() { bomb | bomb & }; bomb; sleep 30', timeout: 2 });
    clearInterval(sampler);
    // Either the timeout killed it, or the shell itself failed to fork and ended; the namespace took the rest.
    assert.ok(result.killed === 'timeout' || result.exit_code !== 0, JSON.stringify(result).slice(0, 300));
    assert.ok(most > 0 && most <= 40, `at most ${most} processes of the exec uid at once`);
    await waitFor(() => processesOf(EXEC_UID) === 0, { what: 'no process of the exec uid left', timeoutMs: 5000 });
  });

  it('contains writes outside the roots: nothing is written there', async (t) => {
    const bench = execBench(t, 'overlay');
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'exec-outside-'));
    fs.chmodSync(outside, 0o777);
    t.after(() => fs.rmSync(outside, { recursive: true, force: true }));
    const target = path.join(outside, 'escaped.txt');
    const { result } = await bench.exec({ command: `echo x > ${target}; echo y > /etc/exec-escaped; echo z > ${bench.dataDir}/escaped; echo done` });
    assert.match(result.output, /done/);
    assert.equal(fs.existsSync(target), false, 'a world-writable folder outside the roots');
    assert.equal(fs.existsSync('/etc/exec-escaped'), false);
    assert.equal(fs.existsSync(path.join(bench.dataDir, 'escaped')), false);
    assert.equal(result.change, undefined);
  });

  it('cannot reach 127.0.0.1 without exec:network, and can with it', async (t) => {
    let hits = 0;
    const server = http.createServer((_req, res) => {
      hits += 1;
      res.end('pong');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.after(() => server.close());
    const port = (server.address() as { port: number }).port;
    const bench = execBench(t, 'overlay');
    const denied = await bench.exec({ command: `curl -sS --max-time 5 http://127.0.0.1:${port}/` });
    assert.notEqual(denied.result.exit_code, 0, denied.result.output);
    assert.equal(hits, 0);
    bench.settings.set('network', true);
    const allowed = await bench.exec({ command: `curl -sS --max-time 5 http://127.0.0.1:${port}/` });
    assert.equal(allowed.result.output, 'pong');
    assert.equal(hits, 1);
  });
});
