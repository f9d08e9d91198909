// kill -9 while a real child process indexes a large folder, twice, then a clean open: the chunk store
// passes integrity_check, nothing crashes, and every file's words are found (none stale, none lost).
import assert from 'node:assert/strict';
import Database from '../../../protocol/runtime/internals/sqlite';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import test from 'node:test';
import { STORE_FILE } from '../../../kernel/knowledge';
import { waitFor } from '../../harness/wait';
import { captureLog, makeScratch, openBase, type Scratch } from './helpers';

const FILES = 1200;
const CHILD = path.join(__dirname, 'index-child.js');

/** A file with a word found nowhere else (its marker) in its second section, among shared words. */
function writeFolder(scratch: Scratch): void {
  for (let i = 0; i < FILES; i++) {
    const sections = [`# Appliance ${i}`, 'Shared words about cleaning, descaling and filters appear in every file.'];
    sections.push(`## Marker\nThe code word of this file is zq${i.toString(36)}x.`);
    for (let s = 0; s < 6; s++) sections.push(`## Section ${s}\n${'Routine maintenance keeps the machine quiet and efficient. '.repeat(8)}`);
    if (i % 3 === 0) sections.push('## 说明\n每月给咖啡机除垢一次。');
    scratch.write(`batch-${Math.floor(i / 100)}/appliance-${i}.md`, `${sections.join('\n\n')}\n`);
  }
}

/** How many files the child has committed so far, read from its store (WAL readers never block it). */
function committedFiles(storeFile: string): number {
  try {
    const db = new Database(storeFile, { readonly: true, fileMustExist: true });
    try {
      return (db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return 0; // not created yet, or its schema not yet written
  }
}

/** Runs the indexing child and kills it with SIGKILL once at least `killAt` files are committed; returns how many were. */
async function indexAndKill(scratch: Scratch, killAt: number): Promise<number> {
  const storeFile = path.join(scratch.indexDir, STORE_FILE);
  const child = spawn(process.execPath, [CHILD, scratch.dir, scratch.indexDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  try {
    await waitFor(() => committedFiles(storeFile) >= killAt || child.exitCode !== null, {
      timeoutMs: 120_000,
      intervalMs: 5,
      what: `${killAt} files indexed by the child`,
    });
  } finally {
    child.kill('SIGKILL');
  }
  const signal = await exited;
  assert.equal(signal, 'SIGKILL', `the child was killed mid-way, not finished: ${output}`);
  return committedFiles(storeFile);
}

function checkIntegrity(storeFile: string): void {
  const db = new Database(storeFile);
  try {
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
  } finally {
    db.close();
  }
}

test('kill -9 during indexing leaves a store that passes integrity_check and an index that answers for the whole folder', { timeout: 300_000 }, async (t) => {
  const scratch = makeScratch();
  t.after(() => scratch.remove());
  writeFolder(scratch);
  const storeFile = path.join(scratch.indexDir, STORE_FILE);

  const first = await indexAndKill(scratch, FILES * 0.2);
  assert.ok(first > 0 && first < FILES, `killed after ${first} of ${FILES} files`);
  checkIntegrity(storeFile);
  const second = await indexAndKill(scratch, Math.max(first + 1, FILES * 0.6));
  assert.ok(second >= first && second < FILES, `killed again after ${second} of ${FILES} files`);
  checkIntegrity(storeFile);

  const { log, lines } = captureLog();
  const base = await openBase(scratch, { log });
  t.after(() => base.close());
  const stats = base.stats();
  assert.equal(stats.files, FILES);
  assert.equal(stats.filesRead, FILES - second, 'only files the killed runs had not committed were read');
  assert.ok(
    lines.every((l) => l.level < 50),
    `no error was logged: ${JSON.stringify(lines.filter((l) => l.level >= 50))}`,
  );
  assert.ok(
    lines.some((l) => /knowledge index (loaded from its snapshot|snapshot was behind|snapshot unusable|snapshot missing)/.test(l.msg)),
    'the open says how it got its index',
  );
  for (const i of [0, 1, Math.floor(first / 2), first - 1, first, second - 1, second, FILES - 1]) {
    const hits = base.search(`zq${i.toString(36)}x`, { limit: 1 });
    assert.equal(hits[0]?.file, `batch-${Math.floor(i / 100)}/appliance-${i}.md`, `file ${i}'s marker is found in it`);
    assert.equal(hits[0]?.heading, `Appliance ${i} > Marker`);
  }
  const chinese = base.search('除垢', { limit: 100 });
  assert.equal(chinese.length, 100);
  assert.ok(
    chinese.every((h) => h.heading.endsWith('> 说明') && Number(/appliance-(\d+)/.exec(h.file)![1]) % 3 === 0),
    'only the Chinese sections match 除垢',
  );
  await base.close();
  checkIntegrity(storeFile);
});
