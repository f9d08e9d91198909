#!/usr/bin/env node
// Runs every compiled test file under dist/test with node's test runner.
// Node 20 takes paths, not globs, so the files are listed here.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
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
// The run gets a temporary folder of its own (sticky and open to all, as /tmp is, for the tests that run a second
// uid), removed whole at the end: a test killed midway leaves nothing behind. What a test left there is named, so
// a forgotten cleanup is seen and fixed where it lives.
const runTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'homeagent-tests-'));
fs.chmodSync(runTmp, 0o1777);
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', ...files], {
  stdio: 'inherit',
  cwd: root,
  env: { ...process.env, TMPDIR: runTmp },
});
const left = fs.readdirSync(runTmp);
if (left.length > 0)
  console.error(`the run left ${left.length} temporary entries behind, now removed: ${left.slice(0, 20).join(' ')}${left.length > 20 ? ' …' : ''}`);
try {
  fs.rmSync(runTmp, { recursive: true, force: true });
} catch (error) {
  console.error(`could not remove ${runTmp}: ${error.message}`);
}
process.exit(result.status ?? 1);
