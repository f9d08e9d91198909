// A graph.db indexed by another tokenizer version is re-cut at open, and found by the new cut.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from '../../../protocol/runtime/internals/sqlite';
import pino from 'pino';
import { test } from 'node:test';
import { MemoryStore } from '../../../kernel/memory';
import { TOKENIZER_VERSION } from '../../../kernel/text/tokenize';

test('the search index is rebuilt when the tokenizer version changed, and only then', (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'memory-reindex-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const paths = { graph: path.join(root, 'graph.db'), text: path.join(root, 'text'), documents: path.join(root, 'documents') };
  const log = pino({ level: 'silent' });
  const first = MemoryStore.open(paths, log);
  first.record(
    { entities: [{ name: 'Aiko' }], facts: [{ subject: 'Aiko', predicate: 'likes', object: 'コーヒー', text: 'Aiko likes コーヒー.' }] },
    { source: 'test' },
  );
  first.write('The spare key is under the flowerpot.', { source: 'test' });
  first.close();

  // Pretend an older tokenizer built it: stale terms and an older version number.
  const db = new Database(paths.graph);
  db.exec("UPDATE search_fts SET terms = 'stale'");
  db.prepare("UPDATE search_meta SET value = ? WHERE key = 'tokenizer_version'").run(String(TOKENIZER_VERSION - 1));
  db.close();

  const lines: string[] = [];
  const capture = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  const second = MemoryStore.open(paths, capture);
  t.after(() => second.close());
  assert.ok(
    lines.some((l) => l.includes('search index rebuilt for a new tokenizer version')),
    'the rebuild is logged',
  );
  assert.equal(second.search('コーヒー')[0]?.text, 'Aiko likes コーヒー.');
  assert.equal(second.search('flowerpot')[0]?.text, 'The spare key is under the flowerpot.');
  assert.deepEqual(second.search('stale'), []);
  second.close();
  lines.length = 0;
  MemoryStore.open(paths, capture).close();
  assert.ok(!lines.some((l) => l.includes('rebuilt')), 'a current index is left alone');
});
