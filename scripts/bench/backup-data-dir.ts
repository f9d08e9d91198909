// A data dir for the backup bench, made by the real stores: 100k memory facts recorded through MemoryStore (the
// graph database; day files left out, as the graph bench does, to keep the build short), 10k knowledge chunks in the knowledge base's chunk store and index snapshot, the documents
// they came from in knowledge/, and a settings database; idle, as `tar` sees it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import pino from 'pino';
import { openConfigDatabase } from '../../kernel/config/database';
import { MemoryStore } from '../../kernel/memory';
import { GRAPH_PLAN, makeFacts, makeNames, zipfPicker } from './graph';
import { buildOurs } from './knowledge-engines';
import { generateChunks, loadCorpusChunks } from './knowledge-chunks';
import { seededRandom } from './random';

/** What the data dir holds. */
export const BACKUP_PLAN = { facts: 100_000, chunks: 10_000, batch: 2_000 };

/** Builds the data dir under `dataDir` (which must not exist); `scratch` takes the corpus copy. */
export function buildBenchDataDir(dataDir: string, scratch: string): void {
  fs.mkdirSync(path.join(dataDir, 'index'), { recursive: true, mode: 0o700 });
  openConfigDatabase(path.join(dataDir, 'config.db')).close();
  recordFacts(dataDir);
  const chunks = generateChunks(loadCorpusChunks(scratch), BACKUP_PLAN.chunks);
  buildOurs(path.join(dataDir, 'index', 'knowledge.db'), path.join(dataDir, 'index', 'knowledge.index'), chunks);
  const files = new Map<string, string[]>();
  for (const chunk of chunks) files.set(chunk.file, [...(files.get(chunk.file) ?? []), `## ${chunk.heading}\n\n${chunk.text}\n`]);
  for (const [file, parts] of files) {
    const target = path.join(dataDir, 'knowledge', file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, parts.join('\n'));
  }
}

function recordFacts(dataDir: string): void {
  const random = seededRandom(42);
  const names = makeNames(GRAPH_PLAN.entities, random);
  const facts = makeFacts(BACKUP_PLAN.facts, names, zipfPicker(GRAPH_PLAN.entities, GRAPH_PLAN.zipf, random), random);
  const memory = path.join(dataDir, 'memory');
  const store = MemoryStore.open(
    { graph: path.join(memory, 'graph.db'), text: path.join(memory, 'text'), documents: path.join(memory, 'documents') },
    pino({ level: 'silent' }),
    {
      writeFiles: false,
    },
  );
  try {
    for (let i = 0; i < facts.length; i += BACKUP_PLAN.batch) {
      store.record({ entities: [], facts: facts.slice(i, i + BACKUP_PLAN.batch) }, { source: 'bench', session: 'b', turn: i }, `bench-${i}`);
    }
  } finally {
    store.close();
  }
}
