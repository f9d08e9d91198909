// kill -9 during a big record() batch: graph.db passes integrity_check and holds all or none of each batch.
import Database from '../../../protocol/runtime/internals/sqlite';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import pino from 'pino';
import { MemoryStore } from '../../../kernel/memory';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const LOOP = path.join(REPO_ROOT, 'test', 'fixtures', 'memory', 'record-loop.js');

/** Starts the loop and SIGKILLs it as soon as it says it began batch `killAt`; resolves with the last batch begun. */
function runAndKill(dir: string, size: number, files: 'on' | 'off', first: number, killAt: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LOOP, dir, String(size), files, String(first)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let begun = -1;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      for (const match of out.matchAll(/^begin (\d+)$/gm)) begun = Math.max(begun, Number(match[1]));
      if (begun >= killAt && child.exitCode === null && !child.killed) child.kill('SIGKILL');
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`the record loop ended by itself (code ${code}): ${err}`));
      else resolve(begun);
    });
  });
}

function checkBatches(graph: string, size: number, begun: number): number {
  const db = new Database(graph, { readonly: true });
  try {
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
    assert.deepEqual(db.pragma('foreign_key_check'), []);
    const count = db.prepare<[string], { n: number }>("SELECT COUNT(*) AS n FROM facts WHERE text LIKE ? || ' fact %'");
    const job = db.prepare<[string], { facts: number }>('SELECT facts FROM jobs WHERE key = ?');
    let complete = 0;
    for (let n = 0; n <= begun + 1; n++) {
      const facts = count.get(`batch ${n}`)!.n;
      assert.ok(facts === 0 || facts === size, `batch ${n} holds ${facts} of ${size} facts: a half-written batch`);
      assert.equal(job.get(`batch-${n}`)?.facts, facts === size ? size : undefined, `batch ${n}: its job key and its facts disagree`);
      if (facts === size) complete++;
    }
    const provenance = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM provenance').get()!.n;
    assert.equal(provenance, complete * size, 'one provenance row per fact, none orphaned');
    return complete;
  } finally {
    db.close();
  }
}

test('kill -9 during big record() batches leaves a sound graph.db with whole batches only', { timeout: 120_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ha-memory-crash-'));
  const graph = path.join(dir, 'graph.db');
  try {
    const size = 3000;
    let first = 0;
    let landedInside = 0;
    // Each round kills the loop as batch `first + 2` begins, then the next round retries that batch, as distill would.
    // Three rounds, and up to three more while no kill has landed inside a batch yet (a starved parent may be late).
    for (let round = 0; round < 3 || (landedInside === 0 && round < 6); round++) {
      const begun = await runAndKill(dir, size, 'off', first, first + 2);
      const complete = checkBatches(graph, size, begun);
      assert.ok(complete >= begun, `every batch before the killed one (${begun}) is whole`);
      if (complete === begun) landedInside++;
      first = begun;
    }
    assert.ok(landedInside >= 1, 'at least one kill landed inside a batch (none of it written)');
    const store = MemoryStore.open({ graph, text: path.join(dir, 'text'), documents: path.join(dir, 'documents') }, pino({ level: 'silent' }), {
      writeFiles: false,
    });
    try {
      const db = new Database(graph);
      try {
        db.exec("INSERT INTO search_fts (search_fts) VALUES ('integrity-check')");
      } finally {
        db.close();
      }
      assert.deepEqual(
        store.search('batch 0 fact 17', { limit: 1 }).map((h) => h.text),
        ['batch 0 fact 17'],
        'the index answers',
      );
    } finally {
      store.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('kill -9 while the text files are being written: the next open writes what is missing, once', { timeout: 120_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ha-memory-crash-files-'));
  try {
    const size = 200;
    const begun = await runAndKill(dir, size, 'on', 0, 4);
    const complete = checkBatches(path.join(dir, 'graph.db'), size, begun);
    assert.ok(complete >= 4);
    const store = MemoryStore.open(
      { graph: path.join(dir, 'graph.db'), text: path.join(dir, 'text'), documents: path.join(dir, 'documents') },
      pino({ level: 'silent' }),
    );
    store.close();
    const text = fs
      .readdirSync(path.join(dir, 'text'))
      .map((f) => fs.readFileSync(path.join(dir, 'text', f), 'utf8'))
      .join('\n');
    for (let n = 0; n < complete; n++) {
      for (const i of [0, 1, size - 1]) {
        const lines = text.split('\n').filter((l) => l.startsWith(`- batch ${n} fact ${i} <!--`));
        assert.equal(lines.length, 1, `batch ${n} fact ${i} is in the day file once`);
      }
    }
    assert.deepEqual(
      fs.readdirSync(path.join(dir, 'text')).filter((f) => f.endsWith('.tmp')),
      [],
      'no temp file left behind',
    );
    const db = new Database(path.join(dir, 'graph.db'), { readonly: true });
    try {
      assert.equal(db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM facts WHERE in_file = 0').get()!.n, 0);
      assert.equal(
        db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM facts WHERE invalid_reason = 'forgotten'").get()!.n,
        0,
        'nothing was taken for a person deleting lines',
      );
    } finally {
      db.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
