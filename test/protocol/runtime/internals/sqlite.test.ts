// Which SQLite build each Node.js takes, and that package.json, its lockfile, the README and protocol/runtime/internals/sqlite.ts
// say the same about it: a drift between them is what would make npm ci build, download or drop the wrong one.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import test from 'node:test';
import Database, { chooseSqlitePackage, sqliteBinding, SUPPORTED_NODE } from '../../../../protocol/runtime/internals/sqlite';
import { REPO_ROOT } from '../../../harness/homed';

interface PackageJson {
  engines: { node: string };
  optionalDependencies: Record<string, string>;
  dependencies: Record<string, string>;
}

const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8')) as T;

test('Node-API 10 and later load better-sqlite3 13; Node 20 (Node-API 9) its own build of 12', () => {
  assert.equal(chooseSqlitePackage(10), 'better-sqlite3');
  assert.equal(chooseSqlitePackage(11), 'better-sqlite3');
  assert.equal(chooseSqlitePackage(9), 'better-sqlite3-node20');
  assert.equal(sqliteBinding.package, chooseSqlitePackage(Number(process.versions.napi)));
});

test(`this Node.js (${process.version}) opens a database with the build it should`, () => {
  assert.equal(sqliteBinding.problem, undefined);
  assert.match(sqliteBinding.version ?? '', sqliteBinding.package === 'better-sqlite3' ? /^13\./ : /^12\./);
  const db = new Database(':memory:');
  try {
    assert.deepEqual(db.prepare('SELECT 1 + ? AS v').get(1), { v: 2 });
  } finally {
    db.close();
  }
});

test('engines in package.json, the README and protocol/runtime/internals/sqlite.ts name the same Node.js versions', () => {
  const pkg = readJson<PackageJson>('package.json');
  assert.equal(pkg.engines.node, SUPPORTED_NODE);
  assert.ok(
    fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8').includes(`runs on Node.js \`${SUPPORTED_NODE}\``),
    `README.md does not say "runs on Node.js \`${SUPPORTED_NODE}\`"`,
  );
});

test('each SQLite build is an optional package that only its own Node.js installs', () => {
  const pkg = readJson<PackageJson>('package.json');
  assert.equal(pkg.dependencies['better-sqlite3'], undefined, 'better-sqlite3 is a plain dependency: npm would install 13 on Node 20 too');
  assert.match(pkg.optionalDependencies['better-sqlite3'] ?? '', /^13\./);
  assert.equal(pkg.optionalDependencies['better-sqlite3-node20'], 'file:vendor/better-sqlite3-node20');
  const wrapper = readJson<PackageJson>('vendor/better-sqlite3-node20/package.json');
  assert.equal(wrapper.engines.node, '20.x');
  assert.match(wrapper.dependencies['better-sqlite3'] ?? '', /^12\./);
  assert.match(
    fs.readFileSync(path.join(REPO_ROOT, '.npmrc'), 'utf8'),
    /^install-links=true$/m,
    'without install-links npm links the vendor folder and deletes it when its build fails',
  );
});

test('the lockfile keeps npm from running node-gyp on better-sqlite3 13', () => {
  const lock = readJson<{ packages: Record<string, { version?: string; gypfile?: boolean; optional?: boolean }> }>('package-lock.json');
  const entry = lock.packages['node_modules/better-sqlite3'];
  assert.match(entry?.version ?? '', /^13\./);
  assert.equal(entry?.optional, true);
  assert.equal(
    entry?.gypfile,
    false,
    'package-lock.json lost "gypfile": false on node_modules/better-sqlite3 (npm install rewrites the entry without it): put it back, or npm ci runs node-gyp rebuild on 13, which fails without a download and removes it',
  );
});
