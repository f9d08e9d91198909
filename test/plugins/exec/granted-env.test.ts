// The environment a turn was granted (call.env, sent by homed to a plugin with env.receive) reaches the command in
// both modes as its environment, and only there: on no command line, in no file under the data dir.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { waitFor } from '../../harness/wait';
import { execBench, sandboxSkip } from './helpers';

const MODES = sandboxSkip === false ? (['overlay', 'snapshot'] as const) : (['snapshot'] as const);

/** Live processes whose environment, and whose command line, hold `text`. */
function processesHolding(text: string): { environ: number[]; cmdline: number[] } {
  const found = { environ: [] as number[], cmdline: [] as number[] };
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/environ`, 'latin1').includes(text)) found.environ.push(Number(entry));
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes(text)) found.cmdline.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** Files under `dir` whose bytes hold `text`. */
function filesHolding(dir: string, text: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    try {
      if (fs.readFileSync(file).includes(text)) found.push(file);
    } catch {
      // removed meanwhile
    }
  }
  return found;
}

for (const mode of MODES) {
  describe(`exec with a granted environment (${mode})`, () => {
    it("the variable reaches the command, wins over the model's own, and is on no command line nor in any file", async (t) => {
      const bench = execBench(t, mode);
      const secret = `granted-${randomBytes(12).toString('hex')}`;
      const stop = new AbortController();
      let ready = false;
      const running = bench.exec(
        { command: 'printf %s "$SKILL_KEY" | sha256sum; echo "other: $OTHER"; echo ready; sleep 60', env: { SKILL_KEY: 'the model guessed', OTHER: 'asked' } },
        { env: { SKILL_KEY: secret }, signal: stop.signal, onProgress: (text) => (ready ||= text.includes('ready')) },
      );
      let seen: { environ: number[]; cmdline: number[] };
      let files: string[];
      try {
        await waitFor(() => ready, { what: 'the command to say it is ready', timeoutMs: 15_000 });
        seen = processesHolding(secret);
        files = filesHolding(bench.dataDir, secret);
      } finally {
        stop.abort();
      }
      const { result } = await running;
      assert.equal(result.killed, 'cancelled');
      assert.match(result.output, new RegExp(`^${createHash('sha256').update(secret).digest('hex')}  -\nother: asked\nready\n`), result.output);
      assert.ok(seen.environ.length > 0, 'the running command holds the variable in its environment');
      assert.deepEqual(seen.cmdline, [], 'no command line holds the value');
      assert.deepEqual(files, [], 'no file under the data dir holds the value');
    });

    it("a call without a granted environment runs with the fixed one and the model's", async (t) => {
      const bench = execBench(t, mode);
      const { result } = await bench.exec({ command: 'echo "[$SKILL_KEY] [$OTHER]"', env: { OTHER: 'asked' } });
      assert.equal(result.output, '[] [asked]\n');
    });
  });
}
