import * as path from 'node:path';

/** The repository root (this file runs from dist/scripts/bench). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/** The fixture plugins the tests use; the bench borrows `good`. */
export const FIXTURE_PLUGINS = path.join(REPO_ROOT, 'test', 'fixtures', 'plugins');

/** The compiled kernel entry and plugin host. */
export const HOMED_MAIN = path.join(REPO_ROOT, 'dist', 'kernel', 'main.js');
export const HOST_MAIN_JS = path.join(REPO_ROOT, 'dist', 'plugin-host', 'main.js');
export const HOST_MAIN_TS = path.join(REPO_ROOT, 'plugin-host', 'main.ts');

/** Where the results go as JSON. */
export const RESULTS_FILE = path.join(REPO_ROOT, 'dist', 'bench-results.json');
