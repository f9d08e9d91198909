// The healthcheck plugin's judgements on given figures: free disk space (statfs injected), plugin states, loop lag.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diskFinding, judgeDiskSpace } from '../../../plugins/healthcheck/checks/disk';
import { loopLagFinding, probeFinding } from '../../../plugins/healthcheck/checks/kernel';
import { pluginFindings } from '../../../plugins/healthcheck/checks/plugins';
import { databaseFindings } from '../../../plugins/healthcheck/checks/databases';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

describe('disk space', () => {
  it('is low only when both the share and the amount are small', () => {
    assert.equal(judgeDiskSpace('/d', { freeBytes: 5 * GIB, totalBytes: 100 * GIB }).severity, 'ok', '5 % of a big disk is still 5 GiB');
    assert.equal(judgeDiskSpace('/d', { freeBytes: 500 * MIB, totalBytes: 800 * MIB }).severity, 'ok', 'a small disk with most of it free');
    assert.equal(judgeDiskSpace('/d', { freeBytes: 900 * MIB, totalBytes: 10 * GIB }).severity, 'warning');
    assert.equal(judgeDiskSpace('/d', { freeBytes: 100 * MIB, totalBytes: 10 * GIB }).severity, 'error');
    const full = judgeDiskSpace('/data', { freeBytes: 80 * 1024, totalBytes: 8 * MIB });
    assert.equal(full.severity, 'error');
    assert.match(full.detail, /80 KiB free of 8 MiB \(1\.0 %\) on the file system of \/data/);
    assert.match(full.fix ?? '', /du -sh \/data/);
  });

  it('takes its figures from the reader it is given, and says when it cannot read them', async () => {
    assert.equal((await diskFinding('/d', () => Promise.resolve({ freeBytes: 10 * MIB, totalBytes: 10 * GIB }))).severity, 'error');
    const unknown = await diskFinding('/nowhere', () => Promise.reject(new Error('ENOENT')));
    assert.equal(unknown.severity, 'warning');
    assert.match(unknown.detail, /statfs \/nowhere failed: ENOENT/);
  });
});

describe('plugin states', () => {
  it('reports each enabled plugin that is not ready, a failed one as an error with its reason', () => {
    const findings = pluginFindings([
      { name: 'cli', state: 'ready', enabled: true, reason: null },
      { name: 'webui', state: 'disabled', enabled: false, reason: null },
      { name: 'bridge', state: 'failed', enabled: true, reason: 'crashed 5 times within 5 min; not restarted again' },
      { name: 'timer', state: 'backoff', enabled: true, reason: 'restarting in 2 s' },
      { name: 'web', state: 'starting', enabled: true, reason: null },
    ]);
    assert.deepEqual(
      findings.map((f) => [f.check, f.severity]),
      [
        ['plugin:bridge', 'error'],
        ['plugin:timer', 'warning'],
        ['plugin:web', 'info'],
      ],
    );
    assert.equal(findings[0]?.detail, 'crashed 5 times within 5 min; not restarted again');
    assert.equal(findings[0]?.fix, 'homectl plugins logs bridge; homectl plugins restart bridge');
  });

  it('is one ok finding when every enabled plugin is ready', () => {
    const findings = pluginFindings([{ name: 'cli', state: 'ready', enabled: true, reason: null }]);
    assert.deepEqual(
      findings.map((f) => f.severity),
      ['ok'],
    );
  });
});

describe('kernel figures', () => {
  it('judges the probe round trip and the loop lag', () => {
    assert.equal(probeFinding(3).severity, 'ok');
    assert.equal(probeFinding(1500).severity, 'warning');
    assert.equal(probeFinding(null).severity, 'error');
    assert.equal(loopLagFinding({ mean_ms: 1, p99_ms: 5, max_ms: 40 }).severity, 'ok');
    assert.equal(loopLagFinding({ mean_ms: 2, p99_ms: 5, max_ms: 2500 }).severity, 'warning');
    assert.equal(loopLagFinding({ mean_ms: 1200, p99_ms: 1500, max_ms: 2500 }).severity, 'error');
  });

  it('says when the databases were not checked yet, and names a failing one', () => {
    assert.equal(databaseFindings(null, 0)[0]?.severity, 'info');
    const [bad] = databaseFindings(
      { at: 'now', databases: [{ path: '/d/agent.db', ok: false, messages: ['Tree 8 page 8: btreeInitPage() returns error code 11'], ms: 3 }] },
      null,
    );
    assert.equal(bad?.check, 'database:agent.db');
    assert.equal(bad?.severity, 'error');
  });
});
