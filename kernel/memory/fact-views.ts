// Facts as queries hand them out: names resolved, validity spelled, history attached.
import type { MemoryDb } from './memory-db';
import { publicId } from './ids';
import { toRecord, type ProvenanceRow } from './provenance';
import type { FactView, Validity } from './types';

export interface FactRow {
  id: number;
  subject_id: number;
  predicate: string;
  object: string;
  object_norm: string;
  object_id: number | null;
  text: string;
  single: number;
  learned_at: number;
  valid_from: number | null;
  invalid_at: number | null;
  invalid_reason: 'superseded' | 'forgotten' | 'duplicate' | null;
  superseded_by: number | null;
  file: string;
  in_file: number;
}

type ViewRow = Pick<
  FactRow,
  'id' | 'subject_id' | 'predicate' | 'object' | 'object_id' | 'text' | 'learned_at' | 'valid_from' | 'invalid_at' | 'invalid_reason' | 'superseded_by'
> & {
  subject_name: string;
  object_name: string | null;
};

/** A fact's validity as a person reads it (a collapsed duplicate reads as superseded by its survivor). */
export function validityOf(reason: FactRow['invalid_reason']): Validity {
  if (reason === null) return 'current';
  return reason === 'forgotten' ? 'forgotten' : 'superseded';
}

/** The views of the facts with these row ids, in the same order (ids that no longer exist are left out). */
export function loadFactViews(db: MemoryDb, ids: readonly number[]): FactView[] {
  if (ids.length === 0) return [];
  const list = JSON.stringify(ids);
  const rows = db
    .stmt<ViewRow>(
      `SELECT f.id, f.subject_id, f.predicate, f.object, f.object_id, f.text, f.learned_at, f.valid_from, f.invalid_at, f.invalid_reason, f.superseded_by,
         s.name AS subject_name, o.name AS object_name FROM facts f
       JOIN entities s ON s.id = f.subject_id LEFT JOIN entities o ON o.id = f.object_id
       WHERE f.id IN (SELECT value FROM json_each(?))`,
    )
    .all(list);
  const history = new Map<number, ProvenanceRow[]>();
  // No ORDER BY: sorting the whole answer costs a temp B-tree; each fact's few rows are sorted below.
  for (const row of db.stmt<ProvenanceRow>('SELECT * FROM provenance WHERE fact_id IN (SELECT value FROM json_each(?))').all(list)) {
    const id = row.fact_id as number;
    const rowsOf = history.get(id);
    if (rowsOf) rowsOf.push(row);
    else history.set(id, [row]);
  }
  for (const rowsOf of history.values()) if (rowsOf.length > 1) rowsOf.sort((a, b) => a.id - b.id);
  const byId = new Map(rows.map((row) => [row.id, toView(row, history.get(row.id) ?? [])]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** One fact's view; undefined when it does not exist. */
export function loadFactView(db: MemoryDb, id: number): FactView | undefined {
  return loadFactViews(db, [id])[0];
}

function toView(row: ViewRow, history: ProvenanceRow[]): FactView {
  const view: FactView = {
    id: publicId('fact', row.id),
    subject: { id: publicId('entity', row.subject_id), name: row.subject_name },
    predicate: row.predicate,
    object: row.object,
    text: row.text,
    learnedAt: row.learned_at,
    validFrom: row.valid_from,
    invalidAt: row.invalid_at,
    validity: validityOf(row.invalid_reason),
    supersededBy: row.superseded_by === null ? null : publicId('fact', row.superseded_by),
    provenance: history.map(toRecord),
  };
  if (row.object_id !== null && row.object_name !== null) view.objectEntity = { id: publicId('entity', row.object_id), name: row.object_name };
  return view;
}

/** SQL (over alias `f`) for "valid at time @t": started by then, not yet invalid, never forgotten or a duplicate. */
export const VALID_AT = `(f.invalid_reason IS NULL OR f.invalid_reason = 'superseded')
  AND COALESCE(f.valid_from, f.learned_at) <= @t AND (f.invalid_at IS NULL OR f.invalid_at > @t)`;
