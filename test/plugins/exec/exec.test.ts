// The exec tool with real commands on real files, in both modes: the sandbox (homed as root: own uid, overlay,
// namespaces) and the plain run with snapshots. Sandbox-only walls are tested in sandbox.test.ts.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { waitFor } from '../../harness/wait';
import { EXEC_UID, execBench, isRoot, sandboxSkip, isRunning, processesWith } from './helpers';

const MODES = sandboxSkip === false ? (['overlay', 'snapshot'] as const) : (['snapshot'] as const);

for (const mode of MODES) {
  describe(`exec (${mode})`, () => {
    it('runs echo and returns its output, exit code and mode, with no change recorded', async (t) => {
      const bench = execBench(t, mode);
      const { result } = await bench.exec({ command: 'echo hello; echo oops >&2; exit 3' });
      assert.equal(result.exit_code, 3);
      assert.equal(result.signal, null);
      assert.equal(result.output.split('\n').sort().join(','), ',hello,oops');
      assert.equal(result.truncated, false);
      assert.equal(result.change, undefined);
      assert.equal(result.mode, mode === 'overlay' ? 'sandbox' : 'plain');
      const argv = await bench.exec({ command: ['printf', '%s|', 'a b', "it's"] });
      assert.equal(argv.result.output, "a b|it's|");
    });

    it('records a command writing, changing and deleting files in a root; show diffs it and undo restores', async (t) => {
      const bench = execBench(t, mode);
      await bench.exec({ command: 'true' }); // makes the root
      fs.writeFileSync(path.join(bench.root, 'keep.txt'), 'one\ntwo\n');
      fs.writeFileSync(path.join(bench.root, 'gone.txt'), 'bye\n');
      fs.mkdirSync(path.join(bench.root, 'sub'));
      fs.writeFileSync(path.join(bench.root, 'sub', 'old.txt'), 'old\n');
      if (isRoot) fs.chownSync(path.join(bench.root, 'keep.txt'), 4242, 4242);
      // In the sandbox the command runs as the exec uid: it may delete what that uid owns.
      if (mode === 'overlay') for (const f of ['gone.txt', 'sub', 'sub/old.txt']) fs.chownSync(path.join(bench.root, f), EXEC_UID, EXEC_UID);
      fs.chmodSync(path.join(bench.root, 'keep.txt'), 0o666);
      const { result } = await bench.exec({
        command: 'echo three >> keep.txt && echo new > new.txt && rm gone.txt && rm -r sub && mkdir sub && echo fresh > sub/new.txt',
      });
      assert.equal(result.exit_code, 0, result.output);
      assert.match(result.change ?? '', /^c\d+$/);
      assert.equal(fs.readFileSync(path.join(bench.root, 'keep.txt'), 'utf8'), 'one\ntwo\nthree\n');
      assert.equal(fs.readFileSync(path.join(bench.root, 'new.txt'), 'utf8'), 'new\n');
      assert.equal(fs.existsSync(path.join(bench.root, 'gone.txt')), false);
      assert.deepEqual(fs.readdirSync(path.join(bench.root, 'sub')), ['new.txt']);
      if (isRoot)
        assert.equal(
          fs.statSync(path.join(bench.root, 'keep.txt')).uid,
          fs.statSync(bench.root).uid,
          'a replaced file takes the owner of the folder it lands in',
        );

      const shown = bench.store().show(result.change as string);
      assert.equal(shown.set.mode, mode);
      assert.deepEqual(
        shown.entries.map((e) => path.relative(bench.root, e.path)).sort(),
        ['gone.txt', 'keep.txt', 'new.txt', 'sub/new.txt', 'sub/old.txt'].sort(),
      );
      assert.match(shown.diff, /\+three/);
      assert.match(shown.diff, /-bye/);

      const undone = bench.store().undo(result.change as string);
      assert.ok(undone, 'undo answered');
      assert.equal(fs.readFileSync(path.join(bench.root, 'keep.txt'), 'utf8'), 'one\ntwo\n');
      assert.equal(fs.readFileSync(path.join(bench.root, 'gone.txt'), 'utf8'), 'bye\n');
      assert.equal(fs.readFileSync(path.join(bench.root, 'sub', 'old.txt'), 'utf8'), 'old\n');
      assert.equal(fs.existsSync(path.join(bench.root, 'new.txt')), false);
      assert.equal(fs.existsSync(path.join(bench.root, 'sub', 'new.txt')), false);
    });

    it('kills the whole tree within 100 ms when the call is cancelled, leaving no process behind', async (t) => {
      const bench = execBench(t, mode);
      const marker = `${100 + Math.floor(Math.random() * 1000) / 1000}`;
      const abort = new AbortController();
      const running = bench.exec({ command: `sleep ${marker} & sleep ${marker} & (sleep ${marker}; true) & echo started; wait` }, { signal: abort.signal });
      const sleeps = await waitFor(
        () => {
          const pids = processesWith(`sleep\0${marker}`);
          return pids.length >= 3 && pids;
        },
        { what: 'three sleeps running', timeoutMs: 20_000 },
      );
      const abortedAt = performance.now();
      abort.abort();
      // Polled without yielding: the kill is sent inside abort(), the processes die in the kernel meanwhile.
      while (sleeps.some(isRunning) && performance.now() - abortedAt < 5000);
      const tookMs = performance.now() - abortedAt;
      const { result } = await running;
      assert.equal(result.killed, 'cancelled');
      assert.equal(result.signal, 'SIGKILL');
      assert.deepEqual(processesWith(`sleep\0${marker}`), [], 'no sleep is left');
      assert.ok(tookMs < 100, `the tree was gone ${tookMs.toFixed(1)} ms after the cancel`);
    });

    it('kills a command at its timeout', async (t) => {
      const bench = execBench(t, mode);
      const { result } = await bench.exec({ command: 'echo before; sleep 30; echo after', timeout: 0.5 });
      assert.equal(result.killed, 'timeout');
      assert.equal(result.output, 'before\n');
      assert.ok(result.duration_ms < 5000, `${result.duration_ms} ms`);
    });

    it('caps 10 MB of output to the head and tail with a marker, and streams a bounded amount of it', async (t) => {
      const bench = execBench(t, mode);
      const { result, progress } = await bench.exec({ command: "printf 'HEAD'; head -c 10485760 /dev/zero | tr '\\0' x; printf 'TAIL'" });
      assert.equal(result.exit_code, 0);
      assert.equal(result.truncated, true);
      assert.ok(result.output.startsWith('HEADxxx'));
      assert.ok(result.output.endsWith('xxxTAIL'));
      assert.match(result.output, /\[… 9\.9 MiB of output cut here \(10\.0 MiB in all; the first and last 32 KiB kept\) …\]/);
      assert.ok(result.output.length < 66 * 1024, `${result.output.length} chars kept`);
      const streamed = progress.reduce((sum, piece) => sum + piece.length, 0);
      assert.ok(progress.length > 0 && streamed < 2 * 1024 * 1024, `${progress.length} pieces, ${streamed} chars streamed`);
      assert.ok(
        progress.some((piece) => piece.includes('of output not shown')),
        'skipped output is marked',
      );
    });

    it('refuses a cwd outside the roots, through .. or a symlink', async (t) => {
      const bench = execBench(t, mode);
      await bench.exec({ command: 'true' });
      await assert.rejects(bench.exec({ command: 'pwd', cwd: '/etc' }), /outside the allowed roots/);
      await assert.rejects(bench.exec({ command: 'pwd', cwd: '../..' }), /outside the allowed roots/);
      fs.symlinkSync('/etc', path.join(bench.root, 'etc-link'));
      await assert.rejects(bench.exec({ command: 'pwd', cwd: 'etc-link' }), /outside the allowed roots through a symlink/);
      fs.mkdirSync(path.join(bench.root, 'in'));
      assert.equal((await bench.exec({ command: 'pwd', cwd: 'in' })).result.output, `${fs.realpathSync(bench.root)}/in\n`);
    });
  });
}
