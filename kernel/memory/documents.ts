// The document layer: documents/<entity-slug>.md per entity, regenerated from the graph when its
// facts change. Only the block between the markers is ever rewritten; the rest is the person's,
// kept and searchable. Edits inside the block act on the facts (new words, deleted line = forgotten);
// other lines typed inside it are moved below it. A document without the markers is the person's
// alone and never written again.
import * as path from 'node:path';
import type { MemoryDb } from './memory-db';
import { entityById } from './entities';
import { freshParts, joinDocument, ownWords, personPart, renderBlock, splitDocument, type DocumentParts } from './document-render';
import { editItemText, forgetItem, loadItem } from './item-edits';
import { parseItems, refKey, wordsOf, type ItemRef } from './markdown-items';
import { slugify } from './normalize';
import { indexRow, unindex } from './search-index';
import { tokenize } from '../text/tokenize';
import type { FileTracker } from './tracked-files';

export interface DocumentRow {
  id: number;
  slug: string;
  entity_id: number | null;
  fold_into: number | null;
  person_text: string;
  generated: string | null;
  owned: number;
}

export class Documents {
  constructor(
    private readonly db: MemoryDb,
    private readonly files: FileTracker,
  ) {}

  private touched: ItemRef[] = [];

  /** Takes in a person's edits of documents; returns how many changed and which files. */
  sync(): { documents: number; changed: string[] } {
    const changed: string[] = [];
    for (const rel of this.files.list('documents')) {
      const seen = this.files.inspect(rel);
      if (seen.status === 'ours') this.adopt(rel, seen.content);
      else if (seen.status === 'changed') {
        const edit = this.takeEdit(rel, seen.content);
        if (edit.entityId !== null && edit.blockChanged) this.regenerate(edit.entityId, edit.moved);
        changed.push(rel);
      }
    }
    if (changed.length > 0) this.db.log.info({ files: changed }, "memory: took in a person's edits of documents");
    return { documents: changed.length, changed };
  }

  /** The facts edited or forgotten through a document since the last call: their day-file lines must follow. */
  drainTouched(): ItemRef[] {
    const touched = this.touched;
    this.touched = [];
    return touched;
  }

  /** Rewrites the documents of entities whose facts changed, after folding merged-away documents into their keepers. */
  flush(): void {
    for (const row of this.db.stmt<DocumentRow>('SELECT * FROM documents WHERE fold_into IS NOT NULL').all()) this.fold(row);
    for (const { id } of this.db.stmt<{ id: number }>('SELECT id FROM entities WHERE doc_dirty = 1').all()) this.regenerate(id);
  }

  /** Writes one entity's document from the graph, keeping the person's part of the file (a person's unread edit of it is taken in first). */
  regenerate(entityId: number, extraLines: readonly string[] = []): void {
    const entity = entityById(this.db, entityId);
    if (!entity) return;
    const clean = (): void => void this.db.stmt('UPDATE entities SET doc_dirty = 0 WHERE id = ?').run(entityId);
    let row = this.db.stmt<DocumentRow>('SELECT * FROM documents WHERE entity_id = ?').get(entityId);
    if (!row && !this.db.stmt('SELECT 1 FROM facts WHERE subject_id = @id OR object_id = @id LIMIT 1').get({ id: entityId })) return clean();
    row ??= this.create(entityId, slugify(entity.norm, entityId));
    const rel = `documents/${row.slug}.md`;
    const extra = [...extraLines];
    if (!row.owned) {
      const seen = this.files.inspect(rel);
      if (seen.status === 'ours') this.adopt(rel, seen.content);
      else if (seen.status === 'changed') extra.push(...this.takeEdit(rel, seen.content).moved);
      row = this.db.stmt<DocumentRow>('SELECT * FROM documents WHERE id = ?').get(row.id)!;
    }
    if (row.owned) return clean();
    const content = this.files.read(rel);
    const parts = content === undefined ? undefined : splitDocument(content);
    if (content !== undefined && !parts) return this.db.transaction(() => this.takeOver(row, content));
    const block = renderBlock(this.db, entity);
    const next: DocumentParts = parts ? { ...parts, block } : freshParts(entity.name, block);
    if (extra.length > 0) next.after = `${next.after.replace(/\n*$/, '')}\n\n${extra.join('\n')}\n`;
    if (parts && parts.block === block && extra.length === 0) return clean();
    const id = row.id;
    this.files.write(rel, joinDocument(next), () => {
      this.db.stmt('UPDATE documents SET generated = ?, person_text = ?, updated_at = ? WHERE id = ?').run(block, personPart(next), this.db.now(), id);
      this.index(id);
      clean();
    });
  }

  // A person's edit of one document (or its deletion): facts edited or forgotten, the person's text indexed; returns the lines to move below the block.
  private takeEdit(rel: string, content: string | undefined): { entityId: number | null; blockChanged: boolean; moved: string[] } {
    const slug = path.basename(rel, '.md');
    const row = this.db.stmt<DocumentRow>('SELECT * FROM documents WHERE slug = ?').get(slug);
    const none = { entityId: null, blockChanged: false, moved: [] };
    if (content === undefined) {
      this.db.transaction(() => {
        if (row) {
          unindex(this.db, 'document', row.id);
          if (row.entity_id === null) this.db.stmt('DELETE FROM documents WHERE id = ?').run(row.id);
          else this.db.stmt("UPDATE documents SET generated = NULL, person_text = '', owned = 0 WHERE id = ?").run(row.id);
        }
        this.files.forget(rel);
      });
      return none;
    }
    const parts = splitDocument(content);
    if (!row || row.owned || !parts || row.entity_id === null) {
      this.db.transaction(() => this.takeOver(row ?? this.create(null, slug), content));
      return none;
    }
    const moved: string[] = [];
    const blockChanged = parts.block !== row.generated;
    this.db.transaction(() => {
      if (row.generated !== null && blockChanged) this.touched.push(...this.applyBlockEdits(rel, row.generated, parts.block, moved));
      this.db.stmt('UPDATE documents SET person_text = ? WHERE id = ?').run(personPart(parts), row.id);
      this.index(row.id);
      this.files.accept(rel, content);
    });
    return { entityId: row.entity_id, blockChanged, moved };
  }

  // Facts whose line a person changed (against what we wrote) or deleted inside the block; other new lines are kept for below it.
  private applyBlockEdits(rel: string, oldBlock: string, newBlock: string, moved: string[]): ItemRef[] {
    const touched: ItemRef[] = [];
    const now = new Map<string, { text: string; forgotten: boolean }>();
    for (const item of parseItems(newBlock)) if (item.ref && !now.has(refKey(item.ref))) now.set(refKey(item.ref), item);
    const oldLines = new Set(oldBlock.split('\n').map((l) => l.trim()));
    for (const old of parseItems(oldBlock)) {
      if (!old.ref || old.forgotten) continue;
      const item = now.get(refKey(old.ref));
      const stored = loadItem(this.db, old.ref);
      if (!stored || stored.forgotten) continue;
      if (!item || item.forgotten) {
        if (forgetItem(this.db, old.ref, { source: 'person', file: rel }) !== undefined) touched.push(old.ref);
      } else if (item.text !== old.text && wordsOf(stored.text) !== item.text) {
        editItemText(this.db, old.ref, item.text, rel);
        touched.push(old.ref);
      }
    }
    for (const line of newBlock.split('\n')) {
      const trimmed = line.trim();
      if (trimmed === '' || oldLines.has(trimmed) || parseItems(line)[0]?.ref) continue;
      moved.push(line);
    }
    return touched;
  }

  // A merged-away entity's document: the person's words move to the keeper's document, the file goes.
  private fold(row: DocumentRow): void {
    const rel = `documents/${row.slug}.md`;
    const content = this.files.read(rel);
    const parts = content === undefined ? undefined : splitDocument(content);
    const words = content === undefined ? '' : ownWords(parts ? personPart(parts) : content);
    if (words && row.fold_into !== null) {
      const title = /^#\s+(.+)$/m.exec(content ?? '')?.[1]?.trim() ?? row.slug;
      this.regenerate(row.fold_into, [`### From ${title}`, '', words]);
    }
    this.files.remove(rel);
    this.db.transaction(() => {
      unindex(this.db, 'document', row.id);
      this.db.stmt('DELETE FROM documents WHERE id = ?').run(row.id);
    });
  }

  // Our write landed before its bookkeeping (a crash in between).
  private adopt(rel: string, content: string): void {
    const parts = splitDocument(content);
    this.db.transaction(() => {
      const row = this.db.stmt<DocumentRow>('SELECT * FROM documents WHERE slug = ?').get(path.basename(rel, '.md'));
      if (row && parts) {
        this.db.stmt('UPDATE documents SET generated = ?, person_text = ? WHERE id = ?').run(parts.block, personPart(parts), row.id);
        this.index(row.id);
      }
      this.files.accept(rel, content);
    });
  }

  // The document is the person's alone from now on (no markers, or one they wrote themselves).
  private takeOver(row: DocumentRow, content: string): void {
    if (!row.owned && row.generated !== null)
      this.db.log.warn({ document: row.slug }, 'memory: a document lost its generated-block markers; it is yours now and will not be rewritten');
    this.db.stmt('UPDATE documents SET owned = 1, generated = NULL, person_text = ?, updated_at = ? WHERE id = ?').run(content, this.db.now(), row.id);
    if (row.entity_id !== null) this.db.stmt('UPDATE entities SET doc_dirty = 0 WHERE id = ?').run(row.entity_id);
    this.index(row.id);
    this.files.accept(`documents/${row.slug}.md`, content);
  }

  private create(entityId: number | null, slug: string): DocumentRow {
    const taken = (s: string): boolean => this.db.stmt('SELECT 1 FROM documents WHERE slug = ?').get(s) !== undefined;
    const unique = taken(slug) && entityId !== null ? `${slug}-e${entityId}` : slug;
    const id = Number(
      this.db
        .stmt('INSERT INTO documents (slug, entity_id, owned, updated_at) VALUES (?, ?, ?, ?)')
        .run(unique, entityId, entityId === null ? 1 : 0, this.db.now()).lastInsertRowid,
    );
    return this.db.stmt<DocumentRow>('SELECT * FROM documents WHERE id = ?').get(id)!;
  }

  /** Indexes a document's own words again (after the tokenizer changed). */
  index(docId: number): void {
    const row = this.db
      .stmt<{ person_text: string; name: string | null }>(
        'SELECT d.person_text, e.name FROM documents d LEFT JOIN entities e ON e.id = d.entity_id WHERE d.id = ?',
      )
      .get(docId);
    const words = row ? ownWords(row.person_text) : '';
    if (!row || !words) return unindex(this.db, 'document', docId);
    indexRow(this.db, 'document', docId, tokenize(`${row.name ?? ''} ${words}`).join(' '), true);
  }
}
