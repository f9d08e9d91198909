// Whether the running Node.js still gets security fixes: each LTS line's end of life, from nodejs.org's schedule.
import type { HealthFinding } from '../../../protocol';

/** End of life of each even (LTS) major line, ISO dates (github.com/nodejs/Release). */
export const NODE_END_OF_LIFE: Readonly<Record<number, string>> = { 18: '2025-04-30', 20: '2026-04-30', 22: '2027-04-30', 24: '2028-04-30' };

/** How long before its end of life a line is worth a note. */
const NOTICE_MS = 90 * 24 * 3_600_000;

const FIX = 'install Node.js 22 or 24 (LTS; e.g. from https://nodejs.org or your distribution), then restart homed';

/** The finding for `version` (e.g. `v20.20.2`) on `today`. */
export function nodeVersionFinding(version: string, today: Date): HealthFinding {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  const end = NODE_END_OF_LIFE[major];
  const check = 'node';
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
  if (left <= 0) return { check, severity: 'warning', title: `Node.js ${version} is past its end of life`, detail: `Node.js ${major} got its last security fix on ${end}`, fix: FIX };
  if (left <= NOTICE_MS) return { check, severity: 'info', title: `Node.js ${version} reaches its end of life soon`, detail: `Node.js ${major} gets security fixes until ${end}`, fix: FIX };
  return { check, severity: 'ok', title: `Node.js ${version} is supported`, detail: `Node.js ${major} gets security fixes until ${end}` };
}
