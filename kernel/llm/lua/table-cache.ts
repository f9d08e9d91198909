// Lua tables kept between calls for values handed to a script again and again (an adapter gets the same tool
// schemas before every model call). A kept tree is reused only while nothing in it has changed: every table's
// entries, their values and its metatable are checked against what was built, so a script that writes into
// what it was given gets a fresh copy next time, exactly as if nothing were kept.
import type { Table, TableEntry, TValue } from '../../../protocol/runtime/internals/fengari';

interface Snapshot {
  table: Table;
  size: number;
  metatable: object | null;
  entries: TableEntry[];
  types: number[];
  values: unknown[];
  /** Levels of tables from this one down (1 without nested tables). */
  height: number;
}

interface Tree {
  /** The root table (handed over in a fresh TValue each time: the Lua stack may overwrite a TValue in place). */
  root: Table;
  snapshots: Snapshot[];
  /** The read (see beginRead) in which it was last checked, and the outcome. */
  checkedIn: number;
  intact: boolean;
}

const MAX_TREES = 4;

/** The kept trees of one Lua state, by the JSON text of the value each was built from. */
export class KeptTables {
  private readonly trees = new Map<string, Tree>();
  private readonly treeOf = new Map<Table, { tree: Tree; snapshot: Snapshot }>();
  private readonly texts = new Map<Table, string>();
  private read = 0;

  constructor(private readonly tableType: number) {}

  /** The root table of the kept tree for a value with this JSON text, if nothing in it changed since it was built. */
  take(key: string): Table | undefined {
    const tree = this.trees.get(key);
    if (!tree) return undefined;
    if (!isIntact(tree)) {
      this.drop(key, tree);
      return undefined;
    }
    this.trees.delete(key);
    this.trees.set(key, tree); // most recently used last
    return tree.root;
  }

  /** Keeps the table tree just built from a value with this JSON text. */
  keep(key: string, root: TValue): void {
    if (root.type !== this.tableType) return;
    const snapshots: Snapshot[] = [];
    snapshotTable(root.value as Table, this.tableType, snapshots);
    const tree: Tree = { root: root.value as Table, snapshots, checkedIn: -1, intact: true };
    const old = this.trees.get(key);
    if (old) this.drop(key, old);
    this.trees.set(key, tree);
    for (const snapshot of snapshots) this.treeOf.set(snapshot.table, { tree, snapshot });
    while (this.trees.size > MAX_TREES) {
      const [oldestKey, oldest] = this.trees.entries().next().value as [string, Tree];
      this.drop(oldestKey, oldest);
    }
  }

  /** Starts reading a script's result: a kept tree met in it is checked once per read. */
  beginRead(): void {
    this.read++;
  }

  /** The JSON text of a table of an intact kept tree (written once by `write`), or undefined for any other table. */
  textOf(table: Table, depth: number, maxDepth: number, write: () => string): string | undefined {
    const found = this.treeOf.get(table);
    if (!found) return undefined;
    const { tree, snapshot } = found;
    if (tree.checkedIn !== this.read) {
      tree.checkedIn = this.read;
      tree.intact = isIntact(tree);
    }
    if (!tree.intact) return undefined;
    // A text written at one depth holds at another only if the deepest table still fits under the limit.
    if (depth + snapshot.height > maxDepth) return undefined;
    let text = this.texts.get(table);
    if (text === undefined) this.texts.set(table, (text = write()));
    return text;
  }

  private drop(key: string, tree: Tree): void {
    this.trees.delete(key);
    for (const s of tree.snapshots) {
      if (this.treeOf.get(s.table)?.tree === tree) this.treeOf.delete(s.table);
      this.texts.delete(s.table);
    }
  }
}

// Records a table and the tables under it (a tree just built from JSON: no table appears twice).
function snapshotTable(table: Table, tableType: number, out: Snapshot[]): number {
  const s: Snapshot = { table, size: table.strong.size, metatable: table.metatable, entries: [], types: [], values: [], height: 1 };
  out.push(s);
  for (let e = table.f; e !== undefined; e = e.n) {
    const value = e.value as TValue;
    s.entries.push(e);
    s.types.push(value.type);
    s.values.push(value.value);
    if (value.type === tableType) s.height = Math.max(s.height, 1 + snapshotTable(value.value as Table, tableType, out));
  }
  return s.height;
}

// Whether every table of the tree still has exactly the entries, values and metatable it was built with: a
// changed value changes its entry in place, a removed one leaves its entry without a value, an added one the size.
function isIntact(tree: Tree): boolean {
  for (const s of tree.snapshots) {
    if (s.table.strong.size !== s.size || s.table.metatable !== s.metatable) return false;
    for (let i = 0; i < s.entries.length; i++) {
      const value = (s.entries[i] as TableEntry).value;
      if (value === undefined || value.type !== s.types[i] || value.value !== s.values[i]) return false;
    }
  }
  return true;
}
