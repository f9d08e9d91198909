// The memory graph at 100k relations: build it through record(), then neighbour and 2-hop
// queries and memory search, each beside the same query as plain SQL (or a JS Map) in the same run.
import Database from '../../protocol/runtime/internals/sqlite';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import pino from 'pino';
import { MemoryStore, type ExtractedFact } from '../../kernel/memory';
import { tokenize } from '../../kernel/text/tokenize';
import { seededRandom } from './random';
import { makeRow, type BenchRow } from './results';
import { median, msSince, quantile } from './stats';

export const GRAPH_PLAN = { entities: 20_000, relations: 100_000, batch: 2_000, zipf: 0.8, neighbourSamples: 2_000, twoHopSamples: 300, searchSamples: 1_000 };

const SECTION = '8 memory graph (100k relations, 20k entities)';
const PREDICATES = ['knows', 'friend_of', 'works_with', 'lives_near', 'sister_of', 'parent_of', 'member_of', 'visited', 'plays_with', 'helps'];
const FIRST = 'Ada Ben Cai Dan Eva Fei Gus Hua Ian Jun Kai Lea Max Nia Oto Pia Qin Rui Sam Tao Uma Vic Wen Xia Yan Zoe Ana Bo Cy Di'.split(' ');
const SYLLABLES = 'la mo ri sen ta vo ki nu pe shi ha ro mi dan ver kol bra tin sul mar'.split(' ');
const HAN = '林王李张刘陈杨黄赵周吴徐孙马朱胡郭何高罗伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚'.split('');
const TOPICS = (
  'garden kitchen piano football chess bakery river mountain school office library market harbour festival concert ' +
  'birthday wedding holiday museum bicycle camera coffee tea dinner breakfast hiking swimming painting theatre cinema ' +
  'hospital airport station village island forest lake beach winter summer spring autumn recipe project startup ' +
  'choir band orchestra volunteer charity marathon yoga climbing sailing fishing knitting pottery gardening 咖啡 花园 ' +
  '学校 医院 公园 图书馆 生日 旅行 音乐 电影 火车 飞机 晚饭 早餐 爬山 游泳 画画'
).split(' ');

/** Section 8: build time, neighbour and 2-hop p50/p99, memory search p50/p99, each with its plain baseline. */
export async function benchGraph(plan = GRAPH_PLAN): Promise<BenchRow[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ha-bench-graph-'));
  const random = seededRandom(42);
  const names = makeNames(plan.entities, random);
  const pick = zipfPicker(plan.entities, plan.zipf, random);
  const facts = makeFacts(plan.relations, names, pick, random);
  const rows: BenchRow[] = [];
  const store = MemoryStore.open(
    { graph: path.join(dir, 'graph.db'), text: path.join(dir, 'text'), documents: path.join(dir, 'documents') },
    pino({ level: 'silent' }),
    { writeFiles: false },
  );
  const raw = new Database(path.join(dir, 'graph.db'), { readonly: true });
  try {
    const buildStart = performance.now();
    for (let i = 0; i < facts.length; i += plan.batch)
      store.record({ entities: [], facts: facts.slice(i, i + plan.batch) }, { source: 'bench', session: 'b', turn: i }, `bench-${i}`);
    const buildMs = msSince(buildStart);
    const plainMs = plainInserts(path.join(dir, 'plain.db'), facts);
    rows.push(makeRow(SECTION, 'build: 100k facts via record() (batches of 2k)', buildMs, 'ms', 'plain INSERTs, one table', plainMs, 1));

    const ids = new Map(
      raw
        .prepare<[], { id: number; name: string }>('SELECT id, name FROM entities')
        .all()
        .map((e) => [e.name, e.id]),
    );
    const adjacency = loadAdjacency(raw);
    const degrees = [...adjacency.values()].map((list) => list.length);
    const sample = (n: number): string[] => Array.from({ length: n }, () => names[Math.floor(random() * names.length)]!).filter((name) => ids.has(name));
    process.stderr.write(` [degrees: median ${median(degrees)}, p99 ${quantile(degrees, 0.99)}, max ${Math.max(...degrees)}]`);

    const oneHop = raw.prepare<{ id: number }, { fact: number; other: number }>(
      `SELECT id AS fact, object_id AS other FROM facts WHERE subject_id = @id AND object_id IS NOT NULL AND invalid_at IS NULL
       UNION ALL SELECT id, subject_id FROM facts WHERE object_id = @id AND object_id IS NOT NULL AND invalid_at IS NULL AND subject_id <> @id`,
    );
    const one = sample(plan.neighbourSamples);
    const ours1 = time(one, (name) => store.neighbours(name));
    const sql1 = time(one, (name) => oneHop.all({ id: ids.get(name)! }));
    const map1 = time(one, (name) => adjacency.get(ids.get(name)!));
    rows.push(
      makeRow(SECTION, 'neighbours p50 (FactViews with provenance)', median(ours1), 'ms', 'plain SQL', median(sql1), one.length, {
        kind: 'value-at-most',
        max: 2,
      }),
    );
    rows.push(makeRow(SECTION, 'neighbours p99', quantile(ours1, 0.99), 'ms', 'plain SQL', quantile(sql1, 0.99), one.length));
    rows.push(makeRow(SECTION, 'neighbours p50, JS Map baseline', median(ours1), 'ms', 'Map adjacency', median(map1), one.length));
    // Two hops reach thousands from anyone next to a hub, so neighbours() returns at most 100 beyond the first hop; the baselines stop at 100 too.
    const two = sample(plan.twoHopSamples);
    const cap = 100;
    const sqlTwo = (id: number, limit: number): number => {
      const seen = new Set<number>([id]);
      const first = oneHop.all({ id });
      for (const edge of first) seen.add(edge.other);
      let further = 0;
      walk: for (const edge of first) {
        for (const next of oneHop.iterate({ id: edge.other })) {
          if (further >= limit) break walk;
          if (!seen.has(next.other)) (seen.add(next.other), further++);
        }
      }
      return further;
    };
    const ours2 = time(two, (name) => store.neighbours(name, { hops: 2 }));
    const sql2 = time(two, (name) => sqlTwo(ids.get(name)!, cap));
    const map2 = time(two, (name) => twoHops(adjacency, ids.get(name)!, cap));
    rows.push(
      makeRow(SECTION, '2-hop p50 (hop 1 whole + 100 beyond, as FactViews)', median(ours2), 'ms', 'plain SQL per node', median(sql2), two.length, {
        kind: 'value-at-most',
        max: 2,
      }),
    );
    rows.push(makeRow(SECTION, '2-hop p99', quantile(ours2, 0.99), 'ms', 'plain SQL per node', quantile(sql2, 0.99), two.length));
    rows.push(makeRow(SECTION, '2-hop p50, JS Map baseline', median(ours2), 'ms', 'Map BFS', median(map2), two.length));
    const all2 = time(two, (name) => store.neighbours(name, { hops: 2, limit: Infinity }));
    const sqlAll2 = time(two, (name) => sqlTwo(ids.get(name)!, Infinity));
    rows.push(makeRow(SECTION, '2-hop p50, everything reached (no cap)', median(all2), 'ms', 'plain SQL per node', median(sqlAll2), two.length));

    const queries = Array.from({ length: plan.searchSamples }, () => searchQuery(random, names));
    const fts = raw.prepare<[string], { rowid: number }>('SELECT rowid FROM search_fts WHERE search_fts MATCH ? AND live = 1 ORDER BY rank LIMIT 10');
    const matches = new Map(queries.map((q) => [q, [...new Set(tokenize(q))].map((t) => `"${t}"`).join(' OR ')]));
    const oursS = time(queries, (q) => store.search(q, { limit: 10 }));
    const sqlS = time(queries, (q) => fts.all(matches.get(q)!));
    rows.push(makeRow(SECTION, 'memory search p50 (100k facts, top 10)', median(oursS), 'ms', 'plain FTS5 SQL', median(sqlS), queries.length));
    rows.push(makeRow(SECTION, 'memory search p99', quantile(oursS, 0.99), 'ms', 'plain FTS5 SQL', quantile(sqlS, 0.99), queries.length));
    rows.push(
      makeRow(
        SECTION,
        'graph.db size',
        fs.statSync(path.join(dir, 'graph.db')).size / 1e6,
        'MB',
        'plain table',
        fs.statSync(path.join(dir, 'plain.db')).size / 1e6,
        1,
      ),
    );
  } finally {
    raw.close();
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

function time<T>(inputs: readonly T[], run: (input: T) => unknown): number[] {
  for (const input of inputs.slice(0, 20)) run(input);
  return inputs.map((input) => {
    const start = performance.now();
    run(input);
    return msSince(start);
  });
}

export function makeNames(n: number, random: () => number): string[] {
  const names = new Set<string>();
  while (names.size < n) {
    if (random() < 0.15) {
      const len = 2 + Math.floor(random() * 2);
      names.add(Array.from({ length: len }, () => HAN[Math.floor(random() * HAN.length)]!).join(''));
    } else {
      const last = Array.from({ length: 2 + Math.floor(random() * 2) }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]!).join('');
      names.add(`${FIRST[Math.floor(random() * FIRST.length)]!} ${last[0]!.toUpperCase()}${last.slice(1)}`);
    }
  }
  return [...names];
}

export function makeFacts(n: number, names: string[], pick: () => number, random: () => number): ExtractedFact[] {
  const seen = new Set<string>();
  const facts: ExtractedFact[] = [];
  while (facts.length < n) {
    const s = pick();
    const o = pick();
    const predicate = PREDICATES[Math.floor(random() * PREDICATES.length)]!;
    const key = `${s}:${predicate}:${o}`;
    if (s === o || seen.has(key)) continue;
    seen.add(key);
    const topic = `${TOPICS[Math.floor(random() * TOPICS.length)]!} ${TOPICS[Math.floor(random() * TOPICS.length)]!}`;
    const subject = names[s]!;
    const object = names[o]!;
    facts.push({ subject, predicate, object, objectIsEntity: true, text: `${subject} ${predicate.replace(/_/g, ' ')} ${object} (${topic}).` });
  }
  return facts;
}

function searchQuery(random: () => number, names: string[]): string {
  const topic = TOPICS[Math.floor(random() * TOPICS.length)]!;
  return random() < 0.5 ? `${names[Math.floor(random() * names.length)]!} ${topic}` : `${topic} ${TOPICS[Math.floor(random() * TOPICS.length)]!}`;
}

// The baseline for the build: the same facts as rows of one table with the two lookup indexes, in one transaction.
function plainInserts(file: string, facts: readonly ExtractedFact[]): number {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE f (id INTEGER PRIMARY KEY, s TEXT, p TEXT, o TEXT, text TEXT); CREATE INDEX f_s ON f(s); CREATE INDEX f_o ON f(o)');
    const insert = db.prepare('INSERT INTO f (s, p, o, text) VALUES (?, ?, ?, ?)');
    const start = performance.now();
    db.transaction(() => facts.forEach((f) => insert.run(f.subject, f.predicate, f.object, f.text)))();
    return msSince(start);
  } finally {
    db.close();
  }
}

function loadAdjacency(db: Database.Database): Map<number, number[]> {
  const adjacency = new Map<number, number[]>();
  const add = (a: number, b: number): void => {
    const list = adjacency.get(a);
    if (list) list.push(b);
    else adjacency.set(a, [b]);
  };
  for (const row of db
    .prepare<[], { s: number; o: number }>('SELECT subject_id AS s, object_id AS o FROM facts WHERE object_id IS NOT NULL AND invalid_at IS NULL')
    .iterate()) {
    add(row.s, row.o);
    add(row.o, row.s);
  }
  return adjacency;
}

function twoHops(adjacency: Map<number, number[]>, start: number, limit: number): number {
  const first = adjacency.get(start) ?? [];
  const seen = new Set<number>([start, ...first]);
  let further = 0;
  for (const a of first) {
    for (const b of adjacency.get(a) ?? []) {
      if (further >= limit) return further;
      if (!seen.has(b)) (seen.add(b), further++);
    }
  }
  return further;
}

// Entity indexes drawn with probability ∝ 1/rank^s: a few hubs, a long tail, as people's acquaintances are.
export function zipfPicker(n: number, s: number, random: () => number): () => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let k = 0; k < n; k++) cumulative[k] = total += 1 / Math.pow(k + 1, s);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return () => {
    const target = random() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return order[lo]!;
  };
}
