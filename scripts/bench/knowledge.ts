// Issue 5's knowledge figures: index build time and size, query p50/p99 and persisted-index load time
// at 10k and 100k chunks, and recall@5 on the labelled set — each beside SQLite FTS5 over the same
// chunks and the same tokens (knowledge-engines.ts says how the baseline is made fair).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import pino from 'pino';
import { KnowledgeBase } from '../../kernel/knowledge';
import type { ChunkRecord } from '../../kernel/knowledge/chunk-file';
import { copyMandMobileDocs, findMandMobile, loadLabelledSet, recallAtK, type LabelledQuestion } from '../../test/knowledge-set/recall';
import { buildFts, buildOurs, FtsEngine, loadOurs, sizeOf } from './knowledge-engines';
import { generateChunks, loadCorpusChunks } from './knowledge-chunks';
import { makeRow, type BenchRow } from './results';
import { median, msSince, quantile } from './stats';

const SECTION = '7 knowledge (minisearch vs SQLite FTS5, same tokens)';
// FTS5 takes ~90 ms a query at 100k chunks on a small box: it gets fewer rounds there to keep the section near 3 minutes.
const PLAN = [
  { chunks: 10_000, queryRounds: 6, ftsRounds: 6, loads: 3, p50Target: 2 },
  { chunks: 100_000, queryRounds: 3, ftsRounds: 1, loads: 1, p50Target: 10 },
];

export async function benchKnowledge(): Promise<BenchRow[]> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-knowledge-'));
  try {
    const corpus = loadCorpusChunks(scratch);
    const questions = loadLabelledSet();
    const rows = measureRecall(corpus, questions, scratch);
    for (const step of PLAN) rows.push(...measureAt(generateChunks(corpus, step.chunks), questions, scratch, step));
    rows.push(...(await measureOpen(scratch)));
    return rows;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** Recall@5 of both engines on the labelled set over the real corpus. */
function measureRecall(corpus: ChunkRecord[], questions: LabelledQuestion[], scratch: string): BenchRow[] {
  const ours = buildOurs(path.join(scratch, 'recall.db'), path.join(scratch, 'recall.index'), corpus);
  const fts = buildFts(path.join(scratch, 'recall-fts.db'), corpus);
  try {
    const mine = recallAtK(questions, (q) => ours.search(q.question, 5));
    const theirs = recallAtK(questions, (q) => fts.search(q.question, 5));
    const n = questions.length;
    return [
      makeRow(SECTION, `recall@5, labelled set (${n} questions, ${corpus.length} chunks)`, mine.recall * 100, '%', 'FTS5', theirs.recall * 100, n),
      makeRow(SECTION, '  English questions', mine.byLanguage.en * 100, '%', 'FTS5', theirs.byLanguage.en * 100, n),
      makeRow(SECTION, '  Chinese questions', mine.byLanguage.zh * 100, '%', 'FTS5', theirs.byLanguage.zh * 100, n),
    ];
  } finally {
    ours.close();
    fts.close();
  }
}

function measureAt(chunks: ChunkRecord[], questions: LabelledQuestion[], scratch: string, step: (typeof PLAN)[number]): BenchRow[] {
  const k = `${step.chunks / 1000}k`;
  const files = { store: path.join(scratch, `${k}.db`), snapshot: path.join(scratch, `${k}.index`), fts: path.join(scratch, `${k}-fts.db`) };
  let start = performance.now();
  buildOurs(files.store, files.snapshot, chunks).close();
  const buildMs = msSince(start);
  start = performance.now();
  buildFts(files.fts, chunks).close();
  const ftsBuildMs = msSince(start);

  const loads: number[] = [];
  const ftsLoads: number[] = [];
  for (let i = 0; i < step.loads; i++) {
    start = performance.now();
    loadOurs(files.store, files.snapshot).close();
    loads.push(msSince(start));
    start = performance.now();
    const opened = FtsEngine.open(files.fts);
    opened.search(questions[0]!.question, 5);
    ftsLoads.push(msSince(start));
    opened.close();
  }

  const ours = loadOurs(files.store, files.snapshot);
  const fts = FtsEngine.open(files.fts);
  const times = { ours: [] as number[], fts: [] as number[], oursExact: [] as number[], ftsExact: [] as number[] };
  const time = (into: number[], run: () => unknown): void => {
    const t = performance.now();
    run();
    into.push(msSince(t));
  };
  for (let round = 0; round < step.queryRounds; round++) {
    for (const q of questions) {
      time(times.ours, () => ours.search(q.question, 5));
      if (round < step.ftsRounds) time(times.fts, () => fts.search(q.question, 5));
      time(times.oursExact, () => ours.search(q.question, 5, true));
      if (round < step.ftsRounds) time(times.ftsExact, () => fts.search(q.question, 5, false));
    }
  }
  ours.close();
  fts.close();
  const n = times.ours.length;
  const mb = (bytes: number): number => bytes / 1024 / 1024;
  return [
    makeRow(SECTION, `${k} chunks: build (store + index + snapshot)`, buildMs, 'ms', 'FTS5 build', ftsBuildMs, 1),
    makeRow(
      SECTION,
      `${k} chunks: size on disk (store + snapshot)`,
      mb(sizeOf(files.store) + sizeOf(files.snapshot)),
      'MB',
      'FTS5 database',
      mb(sizeOf(files.fts)),
      1,
    ),
    makeRow(SECTION, `${k} chunks: query p50 (prefix + fuzzy)`, quantile(times.ours, 0.5), 'ms', 'FTS5 p50 (prefix)', quantile(times.fts, 0.5), n, {
      kind: 'value-at-most',
      max: step.p50Target,
    }),
    makeRow(SECTION, `${k} chunks: query p99 (prefix + fuzzy)`, quantile(times.ours, 0.99), 'ms', 'FTS5 p99 (prefix)', quantile(times.fts, 0.99), n),
    makeRow(SECTION, `${k} chunks: query p50, exact terms only`, quantile(times.oursExact, 0.5), 'ms', 'FTS5 p50 (exact)', quantile(times.ftsExact, 0.5), n),
    makeRow(
      SECTION,
      `${k} chunks: load persisted index`,
      median(loads),
      'ms',
      'FTS5 open + first query',
      median(ftsLoads),
      step.loads,
      step.chunks === 10_000 ? { kind: 'value-at-most', max: 500 } : { kind: 'none' },
    ),
  ];
}

/** The whole KnowledgeBase over the real corpus folder: first open (reads, chunks, indexes every file) and reopen (snapshot). */
async function measureOpen(scratch: string): Promise<BenchRow[]> {
  const packageDir = findMandMobile();
  if (!packageDir) return [];
  const dir = path.join(scratch, 'knowledge');
  const files = copyMandMobileDocs(packageDir, dir);
  const options = { dir, indexDir: path.join(scratch, 'kb-index'), log: pino({ level: 'silent' }), watch: false };
  let start = performance.now();
  const first = await KnowledgeBase.open(options);
  const chunks = first.stats().chunks;
  await first.close();
  const firstMs = msSince(start);
  start = performance.now();
  await (await KnowledgeBase.open(options)).close();
  const reopenMs = msSince(start);
  return [
    makeRow(SECTION, `KnowledgeBase open + close, ${files} files (${chunks} chunks), first time`, firstMs, 'ms', 'reopen from the snapshot', reopenMs, 1),
  ];
}
