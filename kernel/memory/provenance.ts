// A memory's history rows: who told it, who confirmed, edited or forgot it, and when.
import type { MemoryDb } from './memory-db';
import type { Provenance, ProvenanceAction, ProvenanceRecord } from './types';

export interface ProvenanceRow {
  id: number;
  fact_id: number | null;
  note_id: number | null;
  action: string;
  source: string;
  session: string | null;
  turn: number | null;
  file: string | null;
  actor: string | null;
  detail: string | null;
  at: number;
}

const INSERT = `INSERT INTO provenance (fact_id, note_id, action, source, session, turn, file, actor, detail, at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** Adds one history row to a fact or a note. */
export function addProvenance(db: MemoryDb, target: { fact: number } | { note: number }, action: ProvenanceAction, p: Provenance, detail?: string): void {
  const fact = 'fact' in target ? target.fact : null;
  const note = 'note' in target ? target.note : null;
  db.stmt(INSERT).run(fact, note, action, p.source, p.session ?? null, p.turn ?? null, p.file ?? null, p.actor ?? null, detail ?? null, db.now());
}

/** Copies every history row of one fact onto another (duplicates collapsing in a merge). */
export function copyFactProvenance(db: MemoryDb, from: number, to: number): void {
  db.stmt(
    `INSERT INTO provenance (fact_id, action, source, session, turn, file, actor, detail, at)
       SELECT ?, action, source, session, turn, file, actor, detail, at FROM provenance WHERE fact_id = ? ORDER BY id`,
  ).run(to, from);
}

/** A stored row as the public record. */
export function toRecord(row: ProvenanceRow): ProvenanceRecord {
  const record: ProvenanceRecord = { source: row.source, action: row.action as ProvenanceAction, at: row.at };
  if (row.session !== null) record.session = row.session;
  if (row.turn !== null) record.turn = row.turn;
  if (row.file !== null) record.file = row.file;
  if (row.actor !== null) record.actor = row.actor;
  if (row.detail !== null) record.detail = row.detail;
  return record;
}

/** Where a memory came from, as a person reads it: "session s1, turn 3", "file text/2026-12-02.md", "memory_write by timer". */
export function describeSource(p: Provenance): string {
  if (p.file) return `file ${p.file}`;
  const parts: string[] = [];
  if (p.source !== 'distill' || !p.session) parts.push(p.actor ? `${p.source} by ${p.actor}` : p.source);
  if (p.session) parts.push(p.turn !== undefined ? `session ${p.session}, turn ${p.turn}` : `session ${p.session}`);
  return parts.join(', ');
}
