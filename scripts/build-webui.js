#!/usr/bin/env node
// Type-checks the web page (plugins/webui/app, TypeScript against its own tsconfig with the DOM lib), then bundles it
// with esbuild into dist/plugins/webui/assets: minified, with content-hashed names, and a manifest.json mapping each
// entry (app.js, app.css, login.js) to its file.
'use strict';
const { execFileSync } = require('node:child_process');
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const source = path.join(root, 'plugins', 'webui', 'app');
const out = path.join(root, 'dist', 'plugins', 'webui', 'assets');

execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(source, 'tsconfig.json')], { stdio: 'inherit' });

fs.rmSync(out, { recursive: true, force: true });
const entries = { app: 'main.ts', login: 'login.ts' };
const result = esbuild.buildSync({
  entryPoints: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, path.join(source, file)])),
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2020'],
  entryNames: '[name]-[hash]',
  outdir: out,
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
});

const manifest = {};
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  if (!output.entryPoint) continue;
  const entry = Object.keys(entries).find((name) => path.resolve(root, output.entryPoint) === path.join(source, entries[name]));
  manifest[`${entry}.js`] = path.basename(file);
  if (output.cssBundle) manifest[`${entry}.css`] = path.basename(output.cssBundle);
}
for (const needed of ['app.js', 'app.css', 'login.js']) {
  if (!manifest[needed]) throw new Error(`build-webui: no ${needed} came out of ${source}`);
}
fs.writeFileSync(path.join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
