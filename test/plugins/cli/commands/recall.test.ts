// homectl memory … and homectl knowledge … against a real homed, with a fake provider on the wire;
// and kill -9 of homed in the middle of distilling, then a clean restart.
import assert from 'node:assert/strict';
import Database from '../../../../protocol/runtime/internals/sqlite';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startFakeLlm, startFakeLlmFor, type FakeLlm } from '../../../fake-llm/server';
import { fakeProviderEnv, makeTempDir, runHomectl, startHomed, waitFor, type HomedHandle } from '../../../harness/homed';
import { runWaiter } from '../../../harness/waiter';

function integrity(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    return String(db.pragma('integrity_check', { simple: true }));
  } finally {
    db.close();
  }
}

describe('homectl memory and knowledge', () => {
  let llm: FakeLlm;
  let homed: HomedHandle;
  let work: string;
  const ctl = (...args: string[]) => runHomectl(args, { dataDir: homed.dataDir, cwd: work });

  before(async () => {
    llm = await startFakeLlm();
    homed = await startHomed({ env: fakeProviderEnv(llm) });
    // knowledge add takes files from the allowed roots: <data>/workspace when files:roots is unset.
    work = path.join(homed.dataDir, 'workspace');
    fs.mkdirSync(work, { recursive: true });
  });
  after(async () => {
    await homed?.cleanup();
    await llm?.close();
  });

  it('adds, lists, searches (English and Chinese), removes and reindexes documents', async () => {
    fs.writeFileSync(path.join(work, 'boiler.md'), '# Boiler\n\n## Pressure\nThe boiler pressure should read between 1 and 1.5 bar when cold.\n');
    fs.writeFileSync(path.join(work, '花园.txt'), '番茄每周浇水两次，夏天每天浇水。\n\n玫瑰在早春修剪。\n');
    const added = await ctl('knowledge', 'add', 'boiler.md', '花园.txt');
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /boiler\.md: \d+ chunks indexed/);
    const list = await ctl('knowledge', 'list', '--json');
    assert.deepEqual((JSON.parse(list.stdout) as { file: string }[]).map((f) => f.file).sort(), ['boiler.md', '花园.txt']);
    const en = await ctl('knowledge', 'search', 'boiler pressure');
    assert.equal(en.code, 0, en.stderr);
    assert.match(en.stdout, /^boiler\.md:\d+ § .*Pressure/m);
    const zh = await ctl('knowledge', 'search', '番茄浇水');
    assert.match(zh.stdout, /^花园\.txt:1/m);
    fs.writeFileSync(path.join(work, 'boiler.md'), '# Boiler\n\n## Pressure\nKeep the boiler pressure between 1.2 and 1.8 bar.\n');
    const clash = await ctl('knowledge', 'add', 'boiler.md');
    assert.equal(clash.code, 1);
    assert.match(clash.stderr, /already has a different boiler\.md/);
    const replaced = await ctl('knowledge', 'add', '--replace', 'boiler.md');
    assert.equal(replaced.code, 0, replaced.stderr);
    assert.match((await ctl('knowledge', 'search', 'boiler pressure')).stdout, /1\.2 and 1\.8 bar/);
    const reindexed = await ctl('knowledge', 'reindex');
    assert.match(reindexed.stdout, /reindexed 2 files/);
    const removed = await ctl('knowledge', 'remove', 'boiler.md');
    assert.equal(removed.code, 0, removed.stderr);
    assert.ok(!fs.existsSync(path.join(homed.dataDir, 'knowledge', 'boiler.md')));
    const gone = await ctl('knowledge', 'search', 'boiler pressure');
    assert.match(gone.stdout, /no document matches/);
    const missing = await ctl('knowledge', 'remove', 'boiler.md');
    assert.equal(missing.code, 2);
  });

  it('shows what memory_write remembered, and forgets it on request', async () => {
    llm.enqueue({ toolCalls: [{ name: 'memory_write', args: { text: 'The spare key is under the blue flowerpot.' } }] }, { text: 'Noted.' });
    const said = await runWaiter(['-data', homed.dataDir, '--session', 'cli:keys', '-say', 'remember: the spare key is under the blue flowerpot']);
    assert.equal(said.code, 0, said.stderr);
    const found = await ctl('memory', 'search', 'spare key', '--json');
    const hits = JSON.parse(found.stdout) as { id: string; text: string; source: string }[];
    assert.equal(hits[0]?.text, 'The spare key is under the blue flowerpot.');
    assert.match(hits[0]!.source, /memory_write/);
    const table = await ctl('memory', 'search', 'flowerpot');
    assert.match(table.stdout, /ID\s+MEMORY\s+LEARNED\s+STATE\s+FROM/);
    const forgot = await ctl('memory', 'forget', hits[0]!.id);
    assert.equal(forgot.code, 0, forgot.stderr);
    const after = await ctl('memory', 'search', 'spare key', '--json');
    assert.deepEqual(JSON.parse(after.stdout), []);
    const all = await ctl('memory', 'search', 'spare key', '--all', '--json');
    assert.equal((JSON.parse(all.stdout) as { validity: string }[])[0]?.validity, 'forgotten', 'the history keeps it');
    const unknown = await ctl('memory', 'graph', 'Nobody');
    assert.match(unknown.stdout, /nothing is remembered about "Nobody"/);
  });
});

describe('kill -9 of homed while it distils', () => {
  it('restarts cleanly: the databases pass integrity_check and the interrupted work is done once', async (t) => {
    const llm = await startFakeLlmFor(t);
    const dataDir = makeTempDir('kill-');
    t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const env = {
      ...fakeProviderEnv(llm),
      HOMEAGENT_MEMORY_POLICY: JSON.stringify({ distill: { enabled: true, idleMs: 0 }, consolidation: { enabled: false } }),
    };
    const extraction = {
      text: JSON.stringify({
        entities: [{ name: 'Grandma Rose', kind: 'person' }],
        facts: [{ subject: 'Grandma Rose', predicate: 'birthday', object: '9 October', text: "Grandma Rose's birthday is 9 October.", single: true }],
      }),
    };
    const first = await startHomed({ dataDir, env });
    t.after(() => first.cleanup());
    // The turn, then a distill answer that stalls until homed is killed.
    llm.enqueue({ text: 'Lovely.' }, { ...extraction, firstTokenDelayMs: 60_000 });
    const said = await runWaiter(['-data', dataDir, '--session', 'cli:rose', '-say', 'Grandma Rose was born on 9 October']);
    assert.equal(said.code, 0, said.stderr);
    await llm.waitForRequests(2, 20_000);
    assert.match(JSON.stringify(llm.requests[1]?.body), /long-term memories/, 'the second request is the distill one');
    await first.kill9();

    assert.equal(integrity(path.join(dataDir, 'memory', 'graph.db')), 'ok');
    assert.equal(integrity(path.join(dataDir, 'agent.db')), 'ok');
    llm.enqueue(extraction);
    const second = await startHomed({ dataDir, env });
    t.after(() => second.cleanup());
    const facts = await waitFor(
      async () => {
        const out = await runHomectl(['memory', 'search', 'Rose birthday', '--json'], { dataDir });
        const hits = JSON.parse(out.stdout || '[]') as { text: string }[];
        return hits.length > 0 ? hits : undefined;
      },
      { what: 'the fact distilled after the restart', timeoutMs: 30_000, intervalMs: 200 },
    );
    assert.equal(facts.filter((h) => h.text.includes('9 October')).length, 1, 'written once');
    const graph = await runHomectl(['memory', 'graph', 'Grandma Rose'], { dataDir });
    assert.match(graph.stdout, /Grandma Rose \(person\)/);
    assert.match(graph.stdout, /birthday is 9 October.*current.*session cli:rose/s);
    await second.stop();
    assert.equal(integrity(path.join(dataDir, 'memory', 'graph.db')), 'ok');
  });
});
