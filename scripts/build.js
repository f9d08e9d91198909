#!/usr/bin/env node
// Compiles the TypeScript tree into dist/ and lays beside it what tsc does not copy:
// each built-in plugin's manifest, the kernel's Lua files (LLM adapters), and the executable bit of the package's bins.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist');

execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.json')], {
  stdio: 'inherit',
});

for (const name of fs.readdirSync(path.join(root, 'plugins'))) {
  const manifest = path.join(root, 'plugins', name, 'plugin.json');
  if (!fs.existsSync(manifest)) continue;
  fs.mkdirSync(path.join(dist, 'plugins', name), { recursive: true });
  fs.copyFileSync(manifest, path.join(dist, 'plugins', name, 'plugin.json'));
}

// kernel/**/*.lua → dist/kernel/**/*.lua (the shipped LLM adapters are loaded from beside the compiled code).
function copyLua(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) copyLua(full);
    else if (entry.name.endsWith('.lua')) {
      const target = path.join(dist, path.relative(root, full));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(full, target);
    }
  }
}
copyLua(path.join(root, 'kernel'));

const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
for (const bin of Object.values(pkg.bin)) {
  const file = path.join(root, bin);
  if (fs.existsSync(file)) fs.chmodSync(file, 0o755);
}

require('./build-webui.js');
