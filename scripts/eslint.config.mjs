// Lint rules (run with `npm run lint`): type-aware checks, no floating promises,
// and no console in the plugin host, whose stdout is not the place for a plugin's words.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'test/fixtures/**', 'scripts/*.js', 'scripts/*.mjs'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: { parserOptions: { project: path.join(root, 'tsconfig.json'), tsconfigRootDir: root } },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite'] }] },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
  {
    // The page's modules run in the browser and are checked against their own project (DOM lib, bundler resolution).
    files: ['plugins/webui/app/**/*.ts'],
    languageOptions: { parserOptions: { project: path.join(root, 'plugins', 'webui', 'app', 'tsconfig.json'), tsconfigRootDir: root } },
  },
  {
    files: ['plugin-host/**/*.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    // Node 20 has better-sqlite3 12 under another name, 22 and 24 have 13: one module picks the build that loads.
    files: ['**/*.ts'],
    ignores: ['protocol/runtime/internals/sqlite.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'better-sqlite3',
              message: 'import Database from protocol/runtime/internals/sqlite.ts, which loads the better-sqlite3 build this Node.js can use',
            },
          ],
        },
      ],
    },
  },
);
