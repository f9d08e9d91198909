// kill -9 of a real homed while it streams an answer: after each restart every database is sound, every
// accepted message is in its session exactly once with the cut-off answer marked, nothing is re-run, and
// the session's next reader is told.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from '../../../protocol/runtime/internals/sqlite';
import { describe, it } from 'node:test';
import type { SessionsShowResult } from '../../../protocol';
import { startFakeLlmFor } from '../../fake-llm/server';
import { fakeProviderEnv, makeTempDir, runHomectl, startHomed, waitFor, type HomedHandle } from '../../harness/homed';
import { runWaiter, spawnWaiter } from '../../harness/waiter';

const KILLS = 5;

/** Every SQLite database under the data dir, each with its integrity_check answer. */
function checkDatabases(dataDir: string): Record<string, string> {
  const found: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.db')) {
        const db = new Database(full, { readonly: true });
        try {
          found[path.relative(dataDir, full)] = String(db.pragma('integrity_check', { simple: true }));
        } finally {
          db.close();
        }
      }
    }
  };
  walk(dataDir);
  return found;
}

describe('kill -9 of homed mid-answer', () => {
  it(`loses no accepted message over ${KILLS} kills: sound databases, each input once, cut-off answers marked, the reader told`, async (t) => {
    const llm = await startFakeLlmFor(t);
    const dataDir = makeTempDir();
    t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const env = fakeProviderEnv(llm);
    let homed: HomedHandle | undefined;
    t.after(() => homed?.cleanup());
    const session = 'cli:crash';
    // Words streamed 40 ms apart: two seconds of answer, long enough for a checkpoint before the kill.
    llm.setDefault({ text: Array.from({ length: 200 }, (_, i) => `word${i}`).join(' '), tokenDelayMs: 40 });

    for (let kill = 1; kill <= KILLS; kill++) {
      homed = await startHomed({ dataDir, env });
      const asked = `question number ${kill}`;
      const waiter = spawnWaiter(['-data', dataDir, '--session', session, '-say', asked]);
      waiter.child.stdin?.end();
      // The answer streams, and has been checkpointed (once a second) before the kill.
      await waitFor(() => waiter.stdout().includes('word30'), { what: `the answer to ${asked} to stream`, timeoutMs: 20_000 });
      await waitFor(
        () => {
          const db = new Database(path.join(dataDir, 'agent.db'), { readonly: true });
          try {
            const row = db.prepare('SELECT partial FROM inputs WHERE text = ?').get(asked) as { partial: string | null } | undefined;
            return row?.partial?.includes('word') === true;
          } finally {
            db.close();
          }
        },
        { what: 'a checkpoint of the streaming answer', timeoutMs: 10_000 },
      );
      await homed.kill9();
      assert.notEqual(await waiter.exited, 0, 'the waiter whose homed died says so');
      homed = undefined;
      const checks = checkDatabases(dataDir);
      assert.ok(Object.keys(checks).includes('agent.db'), `agent.db checked (${Object.keys(checks).join(', ')})`);
      for (const [file, answer] of Object.entries(checks)) assert.equal(answer, 'ok', `${file} after kill ${kill}`);
    }

    homed = await startHomed({ dataDir, env });
    const requestsBefore = llm.requests.length;
    const shown = await runHomectl(['sessions', 'show', session, '--json'], { dataDir });
    assert.equal(shown.code, 0, shown.stderr);
    const { entries, summary } = JSON.parse(shown.stdout) as SessionsShowResult;
    for (let kill = 1; kill <= KILLS; kill++) {
      const asked = entries.filter((e) => e.role === 'user' && e.text === `question number ${kill}`);
      assert.equal(asked.length, 1, `question ${kill} is stored exactly once`);
      const answer = entries[entries.indexOf(asked[0]!) + 1];
      assert.equal(answer?.role, 'assistant');
      assert.equal(answer?.flag, 'cut_off');
      assert.match(answer?.text ?? '', /^word0 word1 .*\[cut off: homed stopped\]$/);
    }
    assert.equal(summary.cut_off, KILLS);
    assert.equal(summary.open, 0);
    assert.equal(llm.requests.length, requestsBefore, 'no cut-off turn was run again');

    // The next reader of the session is told about the last one (earlier cli processes died with homed).
    llm.setDefault({ text: 'Back again.' });
    const next = await runWaiter(['-data', dataDir, '--session', session, '-say', 'are you back?']);
    assert.equal(next.code, 0, next.stderr);
    assert.match(next.stderr, /while you were away\] .*error: homed stopped while answering "question number 5"/);
    assert.match(next.stderr, /HA_ERR_CUT_OFF/);
    assert.equal(next.stdout, 'Back again.\n');
    const listed = await runHomectl(['sessions', 'list'], { dataDir });
    assert.match(listed.stdout, new RegExp(`cli:crash\\s+cli\\s+${KILLS + 1}\\s+\\S+\\s+${KILLS} cut off`));
  });
});
