// Each database's integrity, from the latest PRAGMA quick_check the kernel ran for the plugin.
import { basename } from 'node:path';
import type { HealthFinding, QuickCheckResult } from '../../../protocol';

/** One finding per database of `checked`; before any check, one info finding saying when the first runs. */
export function databaseFindings(checked: QuickCheckResult | null, firstDueAt: number | null): HealthFinding[] {
  if (!checked) {
    const when = firstDueAt === null ? 'on the slow period' : `at ${new Date(firstDueAt).toISOString()}`;
    return [{ check: 'databases', severity: 'info', title: 'databases not checked yet', detail: `the first quick_check runs ${when}` }];
  }
  return checked.databases.map((db) => {
    const check = `database:${basename(db.path)}`;
    if (db.ok)
      return {
        check,
        severity: 'ok',
        title: `${basename(db.path)} passes quick_check`,
        detail: `${db.path}: ${db.messages.join('; ')} (${db.ms} ms, ${checked.at})`,
      };
    return {
      check,
      severity: 'error',
      title: `${basename(db.path)} fails quick_check`,
      detail: `${db.path}: ${db.messages.join('; ')} (checked ${checked.at})`,
      fix: `homectl backup FILE first; then stop homed and run sqlite3 ${db.path} ".recover" (or restore a backup)`,
    };
  });
}
