// graph.db: entities, aliases, facts (relations are facts whose object is an entity), their
// provenance, merges, done job keys, the files the text layer tracks, and the search index.
import Database from '../../protocol/runtime/internals/sqlite';
import * as fs from 'node:fs';
import * as path from 'node:path';

const SCHEMA_VERSION = 1;

// Ids are AUTOINCREMENT so an id pruned by maintenance is never handed out again: the markers
// in the Markdown files keep naming what they named.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS entities (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  norm TEXT NOT NULL UNIQUE,
  kind TEXT,
  created_at INTEGER NOT NULL,
  doc_dirty INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS entities_doc_dirty ON entities(id) WHERE doc_dirty = 1;
CREATE TABLE IF NOT EXISTS aliases (
  norm TEXT NOT NULL,
  entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  alias TEXT NOT NULL,
  PRIMARY KEY (norm, entity_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS aliases_by_entity ON aliases(entity_id);
CREATE TABLE IF NOT EXISTS facts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  subject_id INTEGER NOT NULL REFERENCES entities(id),
  predicate TEXT NOT NULL,
  object TEXT NOT NULL,
  object_norm TEXT NOT NULL,
  object_id INTEGER REFERENCES entities(id),
  text TEXT NOT NULL,
  single INTEGER NOT NULL DEFAULT 0,
  learned_at INTEGER NOT NULL,
  valid_from INTEGER,
  invalid_at INTEGER,
  invalid_reason TEXT CHECK (invalid_reason IN ('superseded', 'forgotten', 'duplicate')),
  superseded_by INTEGER REFERENCES facts(id) ON DELETE SET NULL,
  file TEXT NOT NULL,
  in_file INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS facts_by_subject ON facts(subject_id, predicate, object_norm);
CREATE INDEX IF NOT EXISTS facts_by_object ON facts(object_id) WHERE object_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS relations_out ON facts(subject_id, object_id) WHERE object_id IS NOT NULL AND invalid_at IS NULL;
CREATE INDEX IF NOT EXISTS relations_in ON facts(object_id, subject_id) WHERE object_id IS NOT NULL AND invalid_at IS NULL;
CREATE INDEX IF NOT EXISTS facts_by_file ON facts(file);
CREATE INDEX IF NOT EXISTS facts_outbox ON facts(id) WHERE in_file = 0;
CREATE INDEX IF NOT EXISTS facts_superseded_by ON facts(superseded_by) WHERE superseded_by IS NOT NULL;
CREATE INDEX IF NOT EXISTS facts_invalid ON facts(invalid_at) WHERE invalid_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS notes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  text TEXT NOT NULL,
  norm TEXT NOT NULL,
  learned_at INTEGER NOT NULL,
  invalid_at INTEGER,
  invalid_reason TEXT CHECK (invalid_reason IN ('forgotten')),
  file TEXT NOT NULL,
  in_file INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS notes_by_norm ON notes(norm);
CREATE INDEX IF NOT EXISTS notes_by_file ON notes(file);
CREATE INDEX IF NOT EXISTS notes_outbox ON notes(id) WHERE in_file = 0;
CREATE TABLE IF NOT EXISTS provenance (
  id INTEGER PRIMARY KEY,
  fact_id INTEGER REFERENCES facts(id) ON DELETE CASCADE,
  note_id INTEGER REFERENCES notes(id) ON DELETE CASCADE,
  action TEXT NOT NULL,
  source TEXT NOT NULL,
  session TEXT,
  turn INTEGER,
  file TEXT,
  actor TEXT,
  detail TEXT,
  at INTEGER NOT NULL,
  CHECK ((fact_id IS NULL) <> (note_id IS NULL))
);
CREATE INDEX IF NOT EXISTS provenance_by_fact ON provenance(fact_id) WHERE fact_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS provenance_by_note ON provenance(note_id) WHERE note_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS merges (
  id INTEGER PRIMARY KEY,
  keep_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  drop_id INTEGER NOT NULL,
  drop_name TEXT NOT NULL,
  at INTEGER NOT NULL,
  source TEXT NOT NULL,
  session TEXT,
  turn INTEGER,
  file TEXT,
  actor TEXT
);
CREATE INDEX IF NOT EXISTS merges_by_keep ON merges(keep_id);
CREATE INDEX IF NOT EXISTS merges_by_drop ON merges(drop_id);
CREATE TABLE IF NOT EXISTS jobs (
  key TEXT PRIMARY KEY,
  at INTEGER NOT NULL,
  facts INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS documents (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  slug TEXT NOT NULL UNIQUE,
  entity_id INTEGER UNIQUE REFERENCES entities(id) ON DELETE SET NULL,
  fold_into INTEGER REFERENCES entities(id) ON DELETE SET NULL,
  person_text TEXT NOT NULL DEFAULT '',
  generated TEXT,
  owned INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS files (
  path TEXT PRIMARY KEY,
  hash TEXT,
  pending_hash TEXT,
  mtime_ms REAL,
  size INTEGER
) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS search_fts USING fts5(terms, live UNINDEXED, tokenize = 'ascii');
`;

/** Opens (creating if needed) graph.db in WAL mode with foreign keys on and its tables in place. */
export function openGraphDatabase(file: string): Database.Database {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      throw new Error(
        `${file} was written by a newer HomeAgent (memory schema ${version}, this one knows ${SCHEMA_VERSION}); upgrade HomeAgent or move the file away`,
      );
    }
    db.exec(SCHEMA);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}
