// doctor's own checks on given facts: Node.js support dates, the systemd unit's states, the summary's exit code.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { modeFindings } from '../../../../plugins/cli/commands/doctor-files';
import { nodeVersionFinding, sqliteFinding } from '../../../../plugins/cli/commands/doctor-node';
import { sqliteBinding } from '../../../../protocol/runtime/internals/sqlite';
import { renderFindings, summarize } from '../../../../plugins/cli/commands/doctor-render';
import { unitFinding } from '../../../../plugins/cli/commands/doctor-unit';

describe('doctor checks', () => {
  it("knows each LTS line's end of life", () => {
    const day = new Date('2026-12-04T12:00:00Z');
    const past = nodeVersionFinding('v20.20.2', day);
    assert.equal(past.severity, 'warning');
    assert.match(past.fix ?? '', /Node\.js 22 or 24/);
    assert.match(past.detail, /npm ci compiles better-sqlite3 12/);
    assert.equal(nodeVersionFinding('v22.14.0', day).severity, 'ok');
    assert.equal(nodeVersionFinding('v22.14.0', new Date('2027-03-01T00:00:00Z')).severity, 'info');
    assert.equal(nodeVersionFinding('v24.22.3', day).severity, 'ok');
    assert.equal(nodeVersionFinding('v25.1.0', day).severity, 'warning');
  });

  it("says which Node.js versions HomeAgent supports and why, as package.json's engines does", () => {
    const day = new Date('2026-12-04T12:00:00Z');
    for (const version of ['v18.20.0', 'v20.14.0', 'v21.7.0', 'v22.12.0', 'v23.1.0']) {
      const finding = nodeVersionFinding(version, day);
      assert.equal(finding.severity, 'error', version);
      assert.equal(finding.title, `Node.js ${version} is not supported`);
      assert.match(
        finding.detail,
        /runs on Node\.js \^20\.15\.0 \|\| \^22\.14\.0 \|\| >=24: .*prebuilt better-sqlite3 13 \(no compiler\).*builds better-sqlite3 12 at npm ci/,
      );
    }
  });

  it('names the SQLite build it loads, or why none loads and what to do', () => {
    assert.deepEqual(sqliteFinding({ package: 'better-sqlite3', version: '13.2.0' }).title, 'SQLite loads: better-sqlite3 13.2.0 (prebuilt, Node-API)');
    assert.deepEqual(
      sqliteFinding({ package: 'better-sqlite3-node20', version: '12.11.1' }).title,
      'SQLite loads: better-sqlite3 12.11.1 (compiled for this Node.js at npm ci)',
    );
    const missing = sqliteFinding({ package: 'better-sqlite3-node20', problem: 'SQLite (better-sqlite3-node20) could not be loaded on Node.js v20.20.2: …' });
    assert.equal(missing.severity, 'error');
    assert.match(missing.fix ?? '', /^npm ci/);
    assert.equal(sqliteFinding(sqliteBinding).severity, 'ok', `this checkout's SQLite: ${sqliteBinding.problem ?? ''}`);
  });

  it('judges the unit from systemctl show, and is not applicable without systemd', async () => {
    assert.equal((await unitFinding(() => false)).severity, 'info');
    const show = (props: Record<string, string>) => () => Promise.resolve(props);
    assert.equal((await unitFinding(() => true, show({ LoadState: 'not-found' }))).fix, 'sudo homed install-service');
    const stopped = await unitFinding(
      () => true,
      show({ LoadState: 'loaded', ActiveState: 'failed', SubState: 'failed', UnitFileState: 'enabled', Result: 'watchdog' }),
    );
    assert.equal(stopped.severity, 'error');
    assert.match(stopped.detail, /last result watchdog/);
    const running = await unitFinding(
      () => true,
      show({ LoadState: 'loaded', ActiveState: 'active', SubState: 'running', UnitFileState: 'enabled', NRestarts: '0', Result: 'success' }),
    );
    assert.equal(running.severity, 'ok');
  });

  it('shows the worst findings last, in the order found within a severity, every line of a detail or fix under the title', () => {
    const findings = [
      { check: 'a', severity: 'error' as const, title: 'first error', detail: 'why\nand more', fix: 'one\ntwo' },
      { check: 'b', severity: 'ok' as const, title: 'fine', detail: 'not shown' },
      { check: 'c', severity: 'warning' as const, title: 'a warning', detail: 'its detail' },
      { check: 'd', severity: 'error' as const, title: 'second error', detail: 'd' },
      { check: 'e', severity: 'info' as const, title: 'a note', detail: 'e' },
    ];
    const text = renderFindings(findings, summarize(findings));
    assert.equal(
      text,
      [
        'ok       fine',
        'info     a note',
        '         e',
        'WARNING  a warning',
        '         its detail',
        'ERROR    first error',
        '         why',
        '         and more',
        '         fix: one',
        '              two',
        'ERROR    second error',
        '         d',
        '',
        '2 errors, 1 warning, 1 note, 1 ok',
      ].join('\n'),
    );
  });

  it("judges the data dir's mode: others may pass through it (homed allows that for plugins' own uids), never read or write it", (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doctor-modes-'));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const judged = (mode: number) => {
      fs.chmodSync(dir, mode);
      const finding = modeFindings(dir, path.join(dir, 'run', 'homed.sock'), false).find((f) => f.check === 'data-dir')!;
      return [finding.severity, finding.fix];
    };
    assert.deepEqual(judged(0o700), ['ok', undefined]);
    assert.deepEqual(judged(0o701), ['ok', undefined], 'searchable, not listable: what homed sets for third-party plugins');
    assert.deepEqual(judged(0o751), ['ok', undefined]);
    assert.deepEqual(judged(0o705), ['error', `chmod g-w,o-rw ${dir}`]);
    assert.deepEqual(judged(0o770), ['error', `chmod g-w,o-rw ${dir}`]);
    assert.deepEqual(judged(0o702), ['error', `chmod g-w,o-rw ${dir}`]);
  });

  it('exits 1 with any warning or error, 0 with only ok and info', () => {
    const f = (severity: 'ok' | 'info' | 'warning' | 'error') => ({ check: 'x', severity, title: '', detail: '' });
    assert.equal(summarize([f('ok'), f('info')]).exit_code, 0);
    assert.equal(summarize([f('ok'), f('warning')]).exit_code, 1);
    assert.deepEqual(summarize([f('error'), f('ok')]).counts, { ok: 1, info: 0, warning: 0, error: 1 });
  });
});
