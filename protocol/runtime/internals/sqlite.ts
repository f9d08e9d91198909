// The one door to SQLite: every database in the kernel, the plugin host and the plugins opens through this file,
// which picks the better-sqlite3 build that the running Node.js can load.
//
// better-sqlite3 13 is a Node-API 10 addon with its binaries inside the package (linux x64 and arm64, glibc and
// musl): it installs from the npm registry alone, with no compiler, and loads on every Node.js that has Node-API
// 10 (22.14+, 24). It crashes on load under Node.js 20 (Node-API 9), so there the older line is used:
// better-sqlite3 12, compiled by npm ci against the running Node's headers (vendor/better-sqlite3-node20, a
// package that only Node 20 installs). 12 built for Node 24 aborted the process (24.21.0) when the garbage collector
// freed a statement outside a JavaScript context (test/protocol/runtime/internals/sqlite-stress.test.ts), so it is never
// loaded on a Node.js that can load 13.
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/** The Node.js versions HomeAgent runs on, as package.json's `engines` says them (checked by a test). */
export const SUPPORTED_NODE = '^20.15.0 || ^22.14.0 || >=24';

/** Why each supported line is supported, as homectl doctor and the README say it. */
export const SUPPORTED_NODE_WHY =
  "Node.js 22.14+ and 24 load the prebuilt better-sqlite3 13 (no compiler); Node.js 20 (Debian's) builds better-sqlite3 12 at npm ci, which needs g++, make and python3";

/** The better-sqlite3 build in use, or why none could be loaded. */
export interface SqliteBinding {
  /** The package loaded: `better-sqlite3` (13, Node-API 10) or `better-sqlite3-node20` (12, built for Node 20). */
  package: string;
  /** Its better-sqlite3 version, when it loaded. */
  version?: string;
  /** What was wrong and what to do, when it did not load. */
  problem?: string;
}

const NODE_API_OF_13 = 10;
const requireHere = createRequire(__filename);

/** The package name this Node.js loads SQLite from: by its Node-API version, not its major number. */
export function chooseSqlitePackage(nodeApi: number): string {
  return nodeApi >= NODE_API_OF_13 ? 'better-sqlite3' : 'better-sqlite3-node20';
}

function loadBinding(): { binding: SqliteBinding; Database?: typeof BetterSqlite3 } {
  const name = chooseSqlitePackage(Number(process.versions.napi));
  try {
    const Database = requireHere(name) as typeof BetterSqlite3;
    // The package better-sqlite3 itself, as the chosen package resolves it (better-sqlite3-node20 has its own copy).
    const version = (createRequire(requireHere.resolve(name))('better-sqlite3/package.json') as { version: string }).version;
    return { binding: { package: name, version }, Database };
  } catch (error) {
    return { binding: { package: name, problem: describeLoadFailure(name, error as Error) } };
  }
}

function describeLoadFailure(name: string, error: Error): string {
  const node = process.version;
  const head = `SQLite (${name}) could not be loaded on Node.js ${node}: ${error.message.split('\n')[0]}`;
  if (name === 'better-sqlite3') return `${head}. Run npm ci in HomeAgent's folder (it installs better-sqlite3 13 from the npm registry)`;
  if (Number(process.versions.napi) < NODE_API_OF_13 && !node.startsWith('v20.')) {
    return `${head}. Node.js ${node} has Node-API ${process.versions.napi}; HomeAgent needs Node.js ${SUPPORTED_NODE}: upgrade Node.js, then run npm ci`;
  }
  return `${head}. On Node.js 20 npm ci compiles better-sqlite3 12: install the build tools (apt-get install g++ make python3) and run npm ci again, or run HomeAgent on Node.js 22 or 24, which need no compiler`;
}

const loaded = loadBinding();

/** The better-sqlite3 build this process uses (homectl doctor shows it). */
export const sqliteBinding: SqliteBinding = loaded.binding;

function refuseToOpen(problem: string): typeof BetterSqlite3 {
  const refuse = function refuse(): never {
    throw new Error(problem);
  };
  return refuse as unknown as typeof BetterSqlite3;
}

/** better-sqlite3's Database class, from the build the running Node.js can load; opening one throws why when none can. */
const Database: typeof BetterSqlite3 = loaded.Database ?? refuseToOpen(loaded.binding.problem ?? 'SQLite is not loaded');

// The types of better-sqlite3, under the same name as the class, as `import Database from 'better-sqlite3'` gave them.
declare namespace Database {
  /** An open database. */
  export type Database = BetterSqlite3.Database;
  /** A prepared statement. */
  export type Statement<P extends unknown[] | {} = unknown[], R = unknown> = BetterSqlite3.Statement<P, R>;
  /** The options of `new Database(file, options)`. */
  export type Options = BetterSqlite3.Options;
}

export default Database;
