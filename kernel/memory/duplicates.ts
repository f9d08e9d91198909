// Finding duplicate entities without asking anyone. Sure: names equal apart from spacing or
// punctuation; an alias of one that is the other's name; a long name one letter off. Ambiguous
// (for the LLM to judge): a name that is part of another ("Lin" / "Lin Wei", "林" / "林伟"), a shared
// alias, a near spelling. Names that differ only in case, width or diacritics never get this far:
// record() already files them under one entity.
import type { MemoryDb } from './memory-db';
import { editDistance, trigrams, trigramSimilarity } from './fuzzy';
import { publicId } from './ids';
import { isCjk, looseKey } from './normalize';
import type { DuplicatePair } from './types';

interface Candidate {
  id: number;
  name: string;
  norm: string;
  loose: string;
  kind: string | null;
  weight: number;
}

interface Proposal {
  a: Candidate;
  b: Candidate;
  sure: boolean;
  reason: string;
  score: number;
}

const FUZZY = { minLength: 5, sureLength: 8, maxPosting: 300, minTrigram: 0.3, ambiguousTrigram: 0.6 };

/** Pairs of entities that look like one: `sure` ones can be merged as they are, `ambiguous` ones need a judge. */
export function findDuplicates(db: MemoryDb): { sure: DuplicatePair[]; ambiguous: DuplicatePair[] } {
  const all = loadCandidates(db);
  const byId = new Map(all.map((c) => [c.id, c]));
  const byNorm = new Map(all.map((c) => [c.norm, c]));
  const proposals = new Map<string, Proposal>();
  const propose = (a: Candidate, b: Candidate, sure: boolean, reason: string, score: number): void => {
    if (a.id === b.id) return;
    const key = a.id < b.id ? `${a.id}:${b.id}` : `${b.id}:${a.id}`;
    const old = proposals.get(key);
    if (!old || (sure && !old.sure) || (sure === old.sure && score > old.score)) proposals.set(key, { a, b, sure, reason, score });
  };
  const byLoose = new Map<string, Candidate[]>();
  for (const c of all) pushTo(byLoose, c.loose, c);
  for (const group of byLoose.values())
    for (let i = 1; i < group.length; i++) propose(group[0]!, group[i]!, true, 'the same name apart from spacing or punctuation', 1);
  findAliasPairs(db, byId, byNorm, byLoose, propose);
  for (const c of all)
    for (const part of partsOf(c.norm)) {
      const other = byNorm.get(part);
      if (other && !kindsConflict(c, other)) propose(c, other, false, `"${other.name}" may be short for "${c.name}"`, 0.6);
    }
  findFuzzyPairs(all, propose);
  const pairs = [...proposals.values()].sort((x, y) => y.score - x.score);
  return { sure: pairs.filter((p) => p.sure).map(toPair), ambiguous: pairs.filter((p) => !p.sure).map(toPair) };
}

function loadCandidates(db: MemoryDb): Candidate[] {
  const weight = new Map<number, number>();
  const count = (rows: { id: number; n: number }[]): void => rows.forEach((r) => weight.set(r.id, (weight.get(r.id) ?? 0) + r.n));
  count(db.stmt<{ id: number; n: number }>('SELECT subject_id AS id, COUNT(*) AS n FROM facts GROUP BY subject_id').all());
  count(db.stmt<{ id: number; n: number }>('SELECT object_id AS id, COUNT(*) AS n FROM facts WHERE object_id IS NOT NULL GROUP BY object_id').all());
  count(db.stmt<{ id: number; n: number }>('SELECT entity_id AS id, COUNT(*) AS n FROM aliases GROUP BY entity_id').all());
  return db
    .stmt<{ id: number; name: string; norm: string; kind: string | null }>('SELECT id, name, norm, kind FROM entities ORDER BY id')
    .all()
    .map((e) => ({ ...e, loose: looseKey(e.norm), weight: weight.get(e.id) ?? 0 }));
}

type Propose = (a: Candidate, b: Candidate, sure: boolean, reason: string, score: number) => void;

function findAliasPairs(db: MemoryDb, byId: Map<number, Candidate>, byNorm: Map<string, Candidate>, byLoose: Map<string, Candidate[]>, propose: Propose): void {
  const owners = new Map<string, Candidate[]>();
  for (const row of db.stmt<{ norm: string; entity_id: number; alias: string }>('SELECT norm, entity_id, alias FROM aliases').all()) {
    const owner = byId.get(row.entity_id);
    if (!owner) continue;
    pushTo(owners, row.norm, owner);
    for (const named of [byNorm.get(row.norm), ...(byLoose.get(looseKey(row.norm)) ?? [])]) {
      if (!named || named.id === owner.id) continue;
      propose(owner, named, !kindsConflict(owner, named), `"${owner.name}" is also called "${row.alias}"`, 0.95);
    }
  }
  for (const [norm, list] of owners) {
    for (let i = 1; i < list.length; i++) propose(list[0]!, list[i]!, false, `both are also called "${norm}"`, 0.7);
  }
}

// The shorter names a name contains: runs of its words, or for a Chinese/Japanese/Korean name, its leading and trailing characters.
function partsOf(norm: string): string[] {
  const words = norm.split(' ');
  const parts: string[] = [];
  if (words.length > 1) {
    for (let i = 0; i < words.length; i++) for (let j = i + 1; j <= words.length; j++) if (j - i < words.length) parts.push(words.slice(i, j).join(' '));
    return parts.filter((p) => p.length >= 2);
  }
  const chars = Array.from(norm);
  if (!isCjk(norm) || chars.length < 2 || chars.length > 8) return [];
  for (let n = Math.max(1, chars.length - 2); n < chars.length; n++) parts.push(chars.slice(0, n).join(''), chars.slice(chars.length - n).join(''));
  return parts;
}

function findFuzzyPairs(all: Candidate[], propose: Propose): void {
  const long = all.filter((c) => Array.from(c.loose).length >= FUZZY.minLength);
  const grams = long.map((c) => trigrams(c.loose));
  const postings = new Map<string, number[]>();
  grams.forEach((set, i) => set.forEach((g) => pushTo(postings, g, i)));
  long.forEach((a, i) => {
    const shared = new Map<number, number>();
    for (const g of grams[i]!) {
      const list = postings.get(g)!;
      if (list.length > FUZZY.maxPosting) continue;
      for (const j of list) if (j > i) shared.set(j, (shared.get(j) ?? 0) + 1);
    }
    for (const j of shared.keys()) {
      const b = long[j]!;
      const similarity = trigramSimilarity(grams[i]!, grams[j]!);
      if (similarity < FUZZY.minTrigram || kindsConflict(a, b) || numbersDiffer(a.loose, b.loose)) continue;
      const shortest = Math.min(Array.from(a.loose).length, Array.from(b.loose).length);
      const distance = editDistance(a.loose, b.loose, 2);
      if (distance === 1 && shortest >= FUZZY.sureLength) propose(a, b, true, 'spelled one letter apart', 0.9);
      else if (distance === 1 || (distance === 2 && shortest >= FUZZY.sureLength))
        propose(a, b, false, `spelled ${distance} letters apart`, 0.8 - distance / 10);
      else if (similarity >= FUZZY.ambiguousTrigram) propose(a, b, false, `similar spelling (trigram similarity ${similarity.toFixed(2)})`, similarity / 2);
    }
  });
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function kindsConflict(a: Candidate, b: Candidate): boolean {
  return a.kind !== null && b.kind !== null && a.kind.toLowerCase() !== b.kind.toLowerCase();
}

function numbersDiffer(a: string, b: string): boolean {
  const digits = (s: string): string => s.replace(/\D/g, '');
  return (digits(a) !== '' || digits(b) !== '') && digits(a) !== digits(b);
}

// The entity with more facts is kept (then the longer, fuller name, then the older one).
function toPair(p: Proposal): DuplicatePair {
  const first = p.a.weight !== p.b.weight ? p.a.weight > p.b.weight : p.a.name.length !== p.b.name.length ? p.a.name.length > p.b.name.length : p.a.id < p.b.id;
  const [keep, drop] = first ? [p.a, p.b] : [p.b, p.a];
  return {
    keep: { id: publicId('entity', keep.id), name: keep.name },
    drop: { id: publicId('entity', drop.id), name: drop.name },
    reason: p.reason,
    score: p.score,
  };
}
