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

/**
 * `homeagent:pages` and `homeagent:strings`: a module whose default export maps each file of app/pages/ (or
 * app/strings/) by its name to its default export, so a page joins the menu, and its strings the tables, by existing.
 */
function folderModules() {
  const folders = { 'homeagent:pages': 'pages', 'homeagent:strings': 'strings' };
  return {
    name: 'homeagent-folders',
    setup(build) {
      build.onResolve({ filter: /^homeagent:(pages|strings)$/ }, (args) => ({ path: args.path, namespace: 'homeagent-folder' }));
      build.onLoad({ filter: /.*/, namespace: 'homeagent-folder' }, (args) => {
        const dir = path.join(source, folders[args.path]);
        const names = fs
          .readdirSync(dir)
          .filter((file) => /^\w+\.ts$/.test(file) && !file.endsWith('.d.ts'))
          .map((file) => file.slice(0, -3))
          .sort();
        const lines = names.map((name, i) => `import m${i} from ${JSON.stringify(path.join(dir, `${name}.ts`))};`);
        lines.push(`export default { ${names.map((name, i) => `${JSON.stringify(name)}: m${i}`).join(', ')} };`);
        return { contents: lines.join('\n'), resolveDir: dir, loader: 'js', watchFiles: names.map((name) => path.join(dir, `${name}.ts`)) };
      });
    },
  };
}

async function main() {
  fs.rmSync(out, { recursive: true, force: true });
  const entries = { app: 'main.ts', login: 'login.ts' };
  const result = await esbuild.build({
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
    plugins: [folderModules()],
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
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
