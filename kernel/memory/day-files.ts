// The text layer: text/YYYY-MM-DD.md, one Markdown file per day, a bullet per fact or note learned
// that day. Written when something is learned (an outbox: rows with in_file = 0), and read back
// when a person edits them: changed words edit the item, a deleted line forgets it, a line moved
// to another file moves it, a new line becomes a note.
import * as path from 'node:path';
import type { MemoryDb } from './memory-db';
import { editItemText, forgetItem, itemsInFile, loadItem, placeItem, type StoredItem } from './item-edits';
import { parseItems, refKey, renderItem, withMarker, wordsOf, type Item, type ItemRef } from './markdown-items';
import { insertNote } from './notes';
import { normalizeNoteText } from './normalize';
import type { FileTracker } from './tracked-files';

interface Changed {
  rel: string;
  content: string | undefined;
  items: Item[];
}

export class DayFiles {
  constructor(
    private readonly db: MemoryDb,
    private readonly files: FileTracker,
  ) {}

  /** Takes in a person's edits of the text files; returns how many items changed and which files. */
  sync(): { items: number; changed: string[] } {
    const changed: Changed[] = [];
    for (const rel of this.files.list('text')) {
      const seen = this.files.inspect(rel);
      if (seen.status === 'ours') this.adopt(rel, seen.content);
      else if (seen.status === 'changed') changed.push({ rel, content: seen.content, items: seen.content === undefined ? [] : parseItems(seen.content) });
    }
    if (changed.length === 0) return { items: 0, changed: [] };
    const rewrites: { rel: string; content: string }[] = [];
    const count = this.db.transaction(() => {
      const home = new Map<string, string>();
      let n = 0;
      for (const file of changed) for (const item of file.items) if (item.ref && !home.has(refKey(item.ref))) home.set(refKey(item.ref), file.rel);
      const tagsOf = new Map<string, Map<number, ItemRef>>();
      for (const file of changed) {
        const tags = new Map<number, ItemRef>();
        n += this.takeLines(file, home, tags);
        tagsOf.set(file.rel, tags);
      }
      for (const file of changed) {
        for (const stored of itemsInFile(this.db, file.rel)) {
          if (home.has(refKey(stored.ref))) continue;
          if (forgetItem(this.db, stored.ref, { source: 'person', file: file.rel }) !== undefined) n++;
        }
        const tags = tagsOf.get(file.rel)!;
        if (file.content === undefined) this.files.forget(file.rel);
        else if (tags.size > 0) rewrites.push({ rel: file.rel, content: retag(file.content, tags) });
        else this.files.accept(file.rel, file.content);
      }
      return n;
    });
    for (const rewrite of rewrites) this.files.write(rewrite.rel, rewrite.content);
    if (count > 0) this.db.log.info({ files: changed.map((c) => c.rel), items: count }, "memory: took in a person's edits of the text files");
    return { items: count, changed: changed.map((c) => c.rel) };
  }

  /** Writes the facts and notes not yet in their day file; a person's pending edits are taken in first. */
  flush(): void {
    const sql = (table: string): string => `SELECT id, text, file, invalid_reason FROM ${table} WHERE in_file = 0 ORDER BY id`;
    type Row = { id: number; text: string; file: string; invalid_reason: string | null };
    if (!this.db.stmt(sql('facts')).get() && !this.db.stmt(sql('notes')).get()) return;
    this.sync();
    const byFile = new Map<string, { ref: ItemRef; text: string; forgotten: boolean }[]>();
    const add =
      (kind: ItemRef['kind']) =>
      (row: Row): void => {
        const list = byFile.get(row.file) ?? [];
        list.push({ ref: { kind, id: row.id }, text: row.text, forgotten: row.invalid_reason === 'forgotten' });
        byFile.set(row.file, list);
      };
    this.db.stmt<Row>(sql('facts')).all().forEach(add('fact'));
    this.db.stmt<Row>(sql('notes')).all().forEach(add('note'));
    for (const [rel, items] of byFile) {
      const before = this.files.read(rel) ?? `# ${path.basename(rel, '.md')}\n\n`;
      const lines = items.map((item) => renderItem(item.text, item.ref, { forgotten: item.forgotten }));
      const content = `${before}${before.endsWith('\n') ? '' : '\n'}${lines.join('\n')}\n`;
      this.files.write(rel, content, () => {
        for (const item of items) this.db.stmt(`UPDATE ${item.ref.kind === 'fact' ? 'facts' : 'notes'} SET in_file = 1 WHERE id = ?`).run(item.ref.id);
      });
    }
  }

  /** Rewrites the lines of items whose words or state changed elsewhere (forgotten, edited in a document); a forgotten line is struck through, not removed. */
  refreshLines(refs: readonly ItemRef[]): void {
    if (refs.length === 0) return;
    this.sync();
    const byFile = new Map<string, Map<string, StoredItem>>();
    for (const ref of refs) {
      const stored = loadItem(this.db, ref);
      if (!stored?.inFile) continue;
      const items = byFile.get(stored.file) ?? new Map<string, StoredItem>();
      items.set(refKey(ref), stored);
      byFile.set(stored.file, items);
    }
    for (const [rel, items] of byFile) {
      const content = this.files.read(rel);
      if (content === undefined) continue;
      const lines = content.split('\n');
      let changed = false;
      for (const item of parseItems(content)) {
        const stored = item.ref && items.get(refKey(item.ref));
        if (!stored) continue;
        const line = renderItem(stored.text, stored.ref, { forgotten: stored.forgotten });
        if (lines[item.line] !== line) {
          lines[item.line] = line;
          changed = true;
        }
      }
      if (changed) this.files.write(rel, lines.join('\n'));
    }
  }

  // The lines of one changed file: known items take the line's words and home; new lines become notes.
  private takeLines(file: Changed, home: Map<string, string>, tags: Map<number, ItemRef>): number {
    let n = 0;
    const claimed = new Set<string>();
    for (const item of file.items) {
      const key = item.ref ? refKey(item.ref) : undefined;
      if (item.ref && key && home.get(key) === file.rel && !claimed.has(key)) {
        claimed.add(key);
        const stored = loadItem(this.db, item.ref);
        if (!stored || stored.forgotten) continue;
        placeItem(this.db, stored, file.rel);
        if (item.forgotten) {
          if (forgetItem(this.db, item.ref, { source: 'person', file: file.rel }) !== undefined) n++;
        } else if (wordsOf(stored.text) !== item.text) {
          editItemText(this.db, item.ref, item.text, file.rel);
          n++;
        }
        continue;
      }
      if (item.forgotten) continue;
      const note = this.noteForLine(file.rel, item.text, home);
      home.set(refKey(note.ref), file.rel);
      tags.set(item.line, note.ref);
      if (note.created) n++;
    }
    return n;
  }

  // A note for a person's new line; after a crash between taking the line in and tagging it, the note made then.
  private noteForLine(rel: string, text: string, home: Map<string, string>): { ref: ItemRef; created: boolean } {
    const same = this.db
      .stmt<{ id: number }>('SELECT id FROM notes WHERE norm = ? AND file = ? AND invalid_at IS NULL ORDER BY id')
      .all(normalizeNoteText(text), rel)
      .find((row) => !home.has(`n${row.id}`));
    if (same) return { ref: { kind: 'note', id: same.id }, created: false };
    return { ref: { kind: 'note', id: insertNote(this.db, text, rel, true, { source: 'person', file: rel }) }, created: true };
  }

  // Our own write landed but its bookkeeping did not (a crash in between): the items in it are in the file.
  private adopt(rel: string, content: string): void {
    this.db.transaction(() => {
      for (const item of parseItems(content)) {
        if (!item.ref) continue;
        const stored = loadItem(this.db, item.ref);
        if (stored && !stored.inFile && stored.file === rel) placeItem(this.db, stored, rel);
      }
      this.files.accept(rel, content);
    });
  }
}

function retag(content: string, tags: Map<number, ItemRef>): string {
  const lines = content.split('\n');
  for (const [line, ref] of tags) lines[line] = withMarker(lines[line]!, ref);
  return lines.join('\n');
}
