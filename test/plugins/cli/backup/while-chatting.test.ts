// A backup taken from a real homed while four sessions chat and files keep landing in its knowledge folder, restored
// into a new data dir: every database there passes integrity_check, and every turn confirmed before the backup
// started is in its session on a homed started on the restored dir.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { startFakeLlmFor } from '../../../fake-llm/server';
import { fakeProviderEnv, makeTempDir, runHomectl, startHomed, waitFor, type HomedHandle } from '../../../harness/homed';
import { checkDatabases, startChatter, storedUserTexts, type Chatter } from './helpers';

const SESSIONS = ['cli:backup-a', 'cli:backup-b', 'cli:backup-c', 'cli:backup-d'];

/** Writes knowledge files one after the other until stopped; resolves with how many it wrote. */
function dropKnowledgeFiles(folder: string): { stop(): Promise<number> } {
  let stopping = false;
  const loop = (async () => {
    let n = 0;
    for (; !stopping; n++) {
      fs.writeFileSync(path.join(folder, `note-${n}.md`), `# Note ${n}\n\n${`The heron number ${n} fishes at dawn by the reed bed. `.repeat(40)}\n`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return n;
  })();
  return {
    stop: () => {
      stopping = true;
      return loop;
    },
  };
}

describe('homectl backup of a busy homed, restored into a new data dir', () => {
  it('holds every turn confirmed before it started, and every database is sound', async (t) => {
    const llm = await startFakeLlmFor(t);
    llm.setDefault({ text: 'noted, thank you', tokenDelayMs: 5 });
    const root = makeTempDir('bk-');
    t.after(() => fs.rmSync(root, { recursive: true, force: true }));
    const env = fakeProviderEnv(llm);
    const source = await startHomed({ env });
    t.after(() => source.cleanup());
    const chatters: Chatter[] = SESSIONS.map((session) => startChatter(source.dataDir, session));
    t.after(() => chatters.forEach((c) => c.kill()));
    // A bulky plugin file makes the archive take a moment to write, while the chats and the indexing go on.
    fs.writeFileSync(path.join(source.dataDir, 'plugin-data', 'cli', 'bulk.bin'), Buffer.alloc(8 * 1024 * 1024, 'homeagent '));
    await waitFor(
      () => {
        const broken = chatters.find((c) => c.failure());
        if (broken) throw broken.failure();
        return chatters.every((c) => c.confirmed.length >= 2);
      },
      { what: 'two confirmed turns in every session', timeoutMs: 30_000 },
    );

    const knowledge = dropKnowledgeFiles(path.join(source.dataDir, 'knowledge'));
    t.after(() => knowledge.stop());
    const startedAt = Date.now();
    const confirmedBefore = chatters.flatMap((c) => c.confirmed.filter((turn) => turn.confirmedAt < startedAt));
    const archive = path.join(root, 'busy.tar.gz');
    const backup = await runHomectl(['backup', archive, '--json'], { dataDir: source.dataDir, timeoutMs: 60_000 });
    const endedAt = Date.now();
    const dropped = await knowledge.stop();
    await Promise.all(chatters.map((c) => c.stop()));
    assert.equal(backup.code, 0, backup.stderr);
    const during = chatters.flatMap((c) => c.confirmed.filter((turn) => turn.confirmedAt >= startedAt && turn.confirmedAt <= endedAt)).length;
    t.diagnostic(
      `${confirmedBefore.length} turns confirmed before the backup, ${during} while it ran (${endedAt - startedAt} ms), ${dropped} knowledge files dropped`,
    );
    assert.ok(
      chatters.every((c) => c.confirmed.some((turn) => turn.confirmedAt > endedAt)),
      'every session kept chatting through the backup',
    );
    const result = JSON.parse(backup.stdout) as { databases: string[]; secretsLeftOut: string[] };
    for (const db of ['agent.db', 'config.db', 'memory/graph.db', 'index/knowledge.db']) assert.ok(result.databases.includes(db), `${db} is in the archive`);
    assert.deepEqual(result.secretsLeftOut, ['llm.provider.main.api_key']);
    assert.equal(fs.statSync(archive).mode & 0o777, 0o600, 'the archive is private to its owner');
    assert.deepEqual(fs.readdirSync(root), ['busy.tar.gz'], 'no temporary file is left beside the archive');
    await source.stop();

    const restoredDir = path.join(root, 'restored', 'data');
    const restore = await runHomectl(['restore', archive, '--json'], { dataDir: restoredDir, timeoutMs: 60_000 });
    assert.equal(restore.code, 0, restore.stderr);
    assert.equal(fs.statSync(restoredDir).mode & 0o777, 0o700, 'a new data dir is private, as homed makes it');
    assert.deepEqual(fs.readdirSync(path.join(root, 'restored')), ['data'], 'no staging folder is left');
    const checks = checkDatabases(restoredDir);
    assert.ok(Object.keys(checks).length >= 5, `databases checked: ${Object.keys(checks).join(', ')}`);
    for (const [file, answer] of Object.entries(checks)) assert.equal(answer, 'ok', `integrity_check of ${file}`);

    let restored: HomedHandle | undefined;
    t.after(() => restored?.cleanup());
    restored = await startHomed({ dataDir: restoredDir, env });
    for (const session of SESSIONS) {
      const stored = await storedUserTexts(restoredDir, session);
      const missing = confirmedBefore.filter((turn) => turn.session === session && !stored.has(turn.text));
      assert.deepEqual(missing, [], `every turn of ${session} confirmed before the backup is restored`);
    }
    await restored.stop();
  });
});
