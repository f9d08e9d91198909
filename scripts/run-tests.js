#!/usr/bin/env node
// Runs every compiled test file under dist/test with node's test runner.
// Node 20 takes paths, not globs, so the files are listed here.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const filter = process.argv.slice(2);

function listTests(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return listTests(full);
    return entry.name.endsWith('.test.js') ? [full] : [];
  });
}

const files = listTests(path.join(root, 'dist', 'test'))
  .filter((file) => filter.length === 0 || filter.some((f) => file.includes(f)))
  .sort();
if (files.length === 0) {
  console.error('no test files found under dist/test (did the build run?)');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', ...files], { stdio: 'inherit', cwd: root });
process.exit(result.status ?? 1);
