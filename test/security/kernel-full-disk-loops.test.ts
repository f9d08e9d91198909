// Background loops on a full disk (a real homed on a small tmpfs, as root): while nothing can be stored, the memory
// loops call the model at most 5 times a minute (before, distill called it every half second), a setting cannot be
// changed and homectl says the disk is full and where (before: HA_ERR_INTERNAL); once space is back, distilling
// resumes by itself.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { DISTILL_INSTRUCTIONS } from '../../kernel/recall/distill/extraction';
import { startFakeLlmFor, type FakeRequest } from '../fake-llm/server';
import { fakeProviderEnv, makeTempDir, runHomectl, startHomed, waitFor, type HomedHandle } from '../harness/homed';
import { runWaiter } from '../harness/waiter';
import { emptyDisk, fillDisk, mountSmallDisk, unmountSmallDisk } from '../kernel/agent/fill-disk';

/** How long the disk stays full while the model calls are counted. */
const FULL_WINDOW_MS = 60_000;
const EXTRACTION = JSON.stringify({
  entities: [{ name: 'Ann', kind: 'person' }],
  facts: [{ subject: 'Ann', predicate: 'lives_in', object: 'Oslo', text: 'Ann lives in Oslo.', single: true }],
});
// Distill waits 15 s of idleness, far more than filling the disk takes; failures back off from 2 s, to 8 s at most.
const LOOPS = JSON.stringify({
  distill: { enabled: true, idleMs: 15_000, failureBackoff: { baseMs: 2_000, factor: 2, maxMs: 8_000 } },
  consolidation: { enabled: true, everyMs: 2_000, idleMs: 0, failureBackoff: { baseMs: 2_000, factor: 2, maxMs: 8_000 } },
});

function isDistill(request: FakeRequest): boolean {
  const body = request.body as { messages?: { content?: unknown }[] } | undefined;
  return body?.messages?.[0]?.content === DISTILL_INSTRUCTIONS;
}

describe('background loops on a full disk', () => {
  it(
    'call the model at most 5 times a minute while the disk is full, refuse config/set with HA_ERR_DISK_FULL, and resume when space is back',
    { timeout: 300_000 },
    async (t) => {
      const mount = makeTempDir('loops-full-');
      const refused = mountSmallDisk(mount, '16m');
      if (refused) {
        fs.rmSync(mount, { recursive: true, force: true });
        return t.skip(refused);
      }
      let homed: HomedHandle | undefined;
      t.after(async () => {
        await homed?.cleanup();
        unmountSmallDisk(mount);
        fs.rmSync(mount, { recursive: true, force: true });
      });
      const llm = await startFakeLlmFor(t);
      llm.setDefault((request) => (isDistill(request) ? { text: EXTRACTION } : { text: 'Noted.' }));
      const dataDir = path.join(mount, 'data');
      homed = await startHomed({ dataDir, env: { ...fakeProviderEnv(llm), HOMEAGENT_MEMORY_POLICY: LOOPS } });
      const said = await runWaiter(['-data', dataDir, '--session', 'cli:full', '-say', 'My sister Ann lives in Oslo.']);
      assert.equal(said.code, 0, said.stderr);

      const filler = path.join(mount, 'filler');
      fillDisk(filler);
      const before = llm.requests.length;
      const setting = await runHomectl(['config', 'set', 'core.memory.distill_batch', '30'], { dataDir });
      await delay(FULL_WINDOW_MS);
      const whileFull = llm.requests.slice(before);
      t.diagnostic(`model calls in ${FULL_WINDOW_MS / 1000} s of a full disk: ${whileFull.length} (${whileFull.filter(isDistill).length} distill)`);
      assert.ok(whileFull.length <= 5, `${whileFull.length} model calls in a minute of a full disk`);
      assert.notEqual(setting.code, 0, 'a setting cannot be stored on a full disk');
      assert.match(setting.stderr, /HA_ERR_DISK_FULL/, setting.stderr);
      assert.ok(setting.stderr.includes(path.join(dataDir, 'config.db')), `the error names the settings file: ${setting.stderr}`);

      emptyDisk(filler);
      const logs = (): Record<string, unknown>[] => homed?.logs() ?? [];
      await waitFor(() => logs().some((line) => line['msg'] === 'distilled conversation into memory'), {
        what: 'distilling to resume once space is back',
        timeoutMs: 90_000,
      });
      assert.ok(llm.requests.slice(before).some(isDistill), 'distill asked the model again');
    },
  );
});
