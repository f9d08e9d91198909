// record(): an extraction written as one transaction — entities, facts, supersession, provenance,
// the search index and the job key, all or nothing.
import { localDayOf } from '../../protocol/format';
import type { MemoryDb } from './memory-db';
import { ensureEntity, markDocDirty } from './entities';
import type { FactRow } from './fact-views';
import { normalizeName, normalizePredicate } from './normalize';
import { addProvenance } from './provenance';
import { indexFact, setLive } from './search-index';
import type { ExtractedFact, Extraction, Provenance } from './types';

export interface RecordOutcome {
  written: number[];
  superseded: number[];
  duplicates: number;
  skipped: boolean;
  rejected: number;
}

/** Writes an extraction in one transaction; a jobKey already done writes nothing. */
export function recordExtraction(db: MemoryDb, extraction: Extraction, provenance: Provenance, jobKey?: string): RecordOutcome {
  return db.transaction(() => {
    const outcome: RecordOutcome = { written: [], superseded: [], duplicates: 0, skipped: false, rejected: 0 };
    if (jobKey !== undefined && db.stmt('SELECT 1 FROM jobs WHERE key = ?').get(jobKey)) return { ...outcome, skipped: true };
    for (const entity of extraction.entities ?? []) {
      if (normalizeName(entity.name ?? '').length === 0) {
        db.log.warn({ entity }, 'memory: an extracted entity has no usable name; left out');
        continue;
      }
      markDocDirty(db, ensureEntity(db, entity.name, entity.kind, entity.aliases ?? []).id);
    }
    for (const fact of extraction.facts ?? []) recordFact(db, fact, provenance, outcome);
    if (jobKey !== undefined) db.stmt('INSERT INTO jobs (key, at, facts) VALUES (?, ?, ?)').run(jobKey, db.now(), outcome.written.length);
    return outcome;
  });
}

function recordFact(db: MemoryDb, fact: ExtractedFact, provenance: Provenance, outcome: RecordOutcome): void {
  const problem = checkFact(fact);
  if (problem) {
    outcome.rejected++;
    db.log.warn({ fact }, `memory: an extracted fact was left out: ${problem}`);
    return;
  }
  const subject = ensureEntity(db, fact.subject);
  const objectEntity = fact.objectIsEntity && normalizeName(fact.object).length > 0 ? ensureEntity(db, fact.object) : undefined;
  const predicate = normalizePredicate(fact.predicate);
  const objectNorm = normalizeName(fact.object) || fact.object.trim().toLowerCase();
  const same = objectEntity
    ? db
        .stmt<{ id: number }>(
          'SELECT id FROM facts WHERE subject_id = ? AND object_id = ? AND object_id IS NOT NULL AND invalid_at IS NULL AND predicate = ? LIMIT 1',
        )
        .get(subject.id, objectEntity.id, predicate)
    : db
        .stmt<{ id: number }>(
          'SELECT id FROM facts WHERE subject_id = ? AND predicate = ? AND object_norm = ? AND object_id IS NULL AND invalid_at IS NULL LIMIT 1',
        )
        .get(subject.id, predicate, objectNorm);
  if (same) {
    addProvenance(db, { fact: same.id }, 'confirmed', provenance);
    outcome.duplicates++;
    return;
  }
  // Only a single-valued predicate needs the current values: they are what the new one may supersede.
  const current = fact.single
    ? db.stmt<FactRow>('SELECT * FROM facts WHERE subject_id = ? AND predicate = ? AND invalid_at IS NULL ORDER BY id').all(subject.id, predicate)
    : [];
  const now = db.now();
  const validFrom = parseTime(db, fact.validFrom);
  const id = Number(
    db
      .stmt(
        `INSERT INTO facts (subject_id, predicate, object, object_norm, object_id, text, single, learned_at, valid_from, file)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        subject.id,
        predicate,
        fact.object.trim(),
        objectNorm,
        objectEntity?.id ?? null,
        fact.text.trim(),
        fact.single ? 1 : 0,
        now,
        validFrom,
        `text/${localDayOf(now)}.md`,
      ).lastInsertRowid,
  );
  addProvenance(db, { fact: id }, 'learned', provenance);
  indexFact(db, id, true);
  if (fact.single) outcome.superseded.push(...supersede(db, id, validFrom ?? now, current));
  markDocDirty(db, subject.id, objectEntity?.id ?? null);
  outcome.written.push(id);
}

/**
 * A single-valued predicate got a new value: the current facts that started before it end where
 * it starts; when one started after it (a fact told late about an earlier time), the new fact is
 * the one that ended. Returns the ids of the facts the new one superseded.
 */
export function supersede(db: MemoryDb, newId: number, start: number, current: readonly FactRow[]): number[] {
  const ended: number[] = [];
  let laterStart = Infinity;
  let later: number | undefined;
  for (const old of current) {
    const oldStart = old.valid_from ?? old.learned_at;
    if (oldStart <= start) {
      endFact(db, old.id, start, newId);
      ended.push(old.id);
    } else if (oldStart < laterStart) {
      laterStart = oldStart;
      later = old.id;
    }
  }
  if (later !== undefined) endFact(db, newId, laterStart, later);
  return ended;
}

function endFact(db: MemoryDb, id: number, at: number, by: number): void {
  db.stmt("UPDATE facts SET invalid_at = ?, invalid_reason = 'superseded', superseded_by = ? WHERE id = ?").run(at, by, id);
  setLive(db, 'fact', id, false);
  const row = db.stmt<{ subject_id: number; object_id: number | null }>('SELECT subject_id, object_id FROM facts WHERE id = ?').get(id);
  if (row) markDocDirty(db, row.subject_id, row.object_id);
}

function checkFact(fact: ExtractedFact): string | undefined {
  if (typeof fact.subject !== 'string' || normalizeName(fact.subject).length === 0) return 'it has no subject';
  if (typeof fact.predicate !== 'string' || normalizePredicate(fact.predicate).length === 0) return 'it has no predicate';
  if (typeof fact.object !== 'string' || fact.object.trim().length === 0) return 'it has no object';
  if (typeof fact.text !== 'string' || fact.text.trim().length === 0) return 'it has no text';
  return undefined;
}

function parseTime(db: MemoryDb, iso: string | undefined): number | null {
  if (iso === undefined || iso === '') return null;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) {
    db.log.debug({ validFrom: iso }, 'memory: validFrom is not a date; the fact counts from when it was learned');
    return null;
  }
  return ms;
}
