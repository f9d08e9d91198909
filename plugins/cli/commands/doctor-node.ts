// Whether the running Node.js is one HomeAgent supports (package.json's engines, from protocol/runtime/internals/sqlite.ts),
// whether it still gets security fixes (each LTS line's end of life, from nodejs.org's schedule), and which SQLite
// build it loads.
import * as semver from 'semver';
import type { HealthFinding } from '../../../protocol';
import { SUPPORTED_NODE, SUPPORTED_NODE_WHY, type SqliteBinding } from '../../../protocol/runtime/internals/sqlite';

/** End of life of each even (LTS) major line, ISO dates (github.com/nodejs/Release). */
export const NODE_END_OF_LIFE: Readonly<Record<number, string>> = { 18: '2025-04-30', 20: '2026-04-30', 22: '2027-04-30', 24: '2028-04-30' };

/** How long before its end of life a line is worth a note. */
const NOTICE_MS = 90 * 24 * 3_600_000;

const FIX = 'install Node.js 22 or 24 (LTS; 22.14 or newer, e.g. from https://nodejs.org or your distribution), then run npm ci and restart homed';

/** The finding for `version` (e.g. `v20.20.2`) on `today`: supported or not, and how long it gets security fixes. */
export function nodeVersionFinding(version: string, today: Date): HealthFinding {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  const end = NODE_END_OF_LIFE[major];
  const check = 'node';
  if (!semver.satisfies(version, SUPPORTED_NODE)) {
    return {
      check,
      severity: 'error',
      title: `Node.js ${version} is not supported`,
      detail: `HomeAgent runs on Node.js ${SUPPORTED_NODE}: ${SUPPORTED_NODE_WHY}`,
      fix: FIX,
    };
  }
  if (end === undefined) {
    const odd = major % 2 === 1;
    return {
      check,
      severity: 'warning',
      title: `Node.js ${version} is not a supported LTS line`,
      detail: odd ? `odd-numbered lines get fixes for six months only` : `this version of homeagent knows no support date for Node.js ${major}`,
      fix: FIX,
    };
  }
  const left = Date.parse(`${end}T00:00:00Z`) - today.getTime();
  const build = major === 20 ? `; on it npm ci compiles better-sqlite3 12 (22.14+ and 24 load a prebuilt one)` : '';
  if (left <= 0)
    return {
      check,
      severity: 'warning',
      title: `Node.js ${version} is past its end of life`,
      detail: `Node.js ${major} got its last security fix on ${end}${build}`,
      fix: FIX,
    };
  if (left <= NOTICE_MS)
    return {
      check,
      severity: 'info',
      title: `Node.js ${version} reaches its end of life soon`,
      detail: `Node.js ${major} gets security fixes until ${end}${build}`,
      fix: FIX,
    };
  return { check, severity: 'ok', title: `Node.js ${version} is supported`, detail: `Node.js ${major} gets security fixes until ${end}${build}` };
}

/** The finding for the SQLite build this Node.js loads (homed loads the same one from the same folder). */
export function sqliteFinding(binding: SqliteBinding): HealthFinding {
  const check = 'sqlite';
  if (binding.problem !== undefined)
    return {
      check,
      severity: 'error',
      title: 'SQLite cannot be loaded',
      detail: binding.problem,
      fix: "npm ci   (in HomeAgent's folder, with the Node.js homed runs on)",
    };
  const how = binding.package === 'better-sqlite3' ? 'prebuilt, Node-API' : 'compiled for this Node.js at npm ci';
  return {
    check,
    severity: 'ok',
    title: `SQLite loads: better-sqlite3 ${binding.version ?? '?'} (${how})`,
    detail: `package ${binding.package}; ${SUPPORTED_NODE_WHY}`,
  };
}
