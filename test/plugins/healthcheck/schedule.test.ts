// When rounds and database checks run: the first round at once, then every interval; the first quick_check once
// integrity_first_after has passed, then not again before integrity_every; an ask for fresh databases runs one now.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HealthSchedule } from '../../../plugins/healthcheck/schedule';
import type { HealthcheckSettings } from '../../../plugins/healthcheck/settings';
import type { HealthReport, QuickCheckResult } from '../../../protocol';
import { waitFor } from '../../harness/wait';

test('rounds every interval, the first quick_check after its delay, another only when asked', async () => {
  const settings: HealthcheckSettings = { intervalMs: 20, integrityEveryMs: 3_600_000, integrityFirstAfterMs: 150, providerTimeoutMs: 1000 };
  const seen: { databases: QuickCheckResult | null; firstDue: number | null; provider: number | undefined }[] = [];
  let checks = 0;
  const published: HealthReport[] = [];
  const schedule = new HealthSchedule({
    settings: () => Promise.resolve(settings),
    round: (databases, firstDue, provider) => {
      seen.push({ databases, firstDue, provider });
      return Promise.resolve({ at: new Date().toISOString(), overall: 'ok', findings: [], duration_ms: 0 });
    },
    quickCheck: () => {
      checks += 1;
      return Promise.resolve({ at: 'now', databases: [] });
    },
    publish: (report) => published.push(report),
    onError: (error) => assert.fail(String(error)),
  });
  const started = Date.now();
  await schedule.start();
  try {
    await waitFor(() => seen.length >= 1, { what: 'the first round' });
    assert.equal(seen[0]?.databases, null, 'no database check in the first round');
    assert.ok((seen[0]?.firstDue ?? 0) >= started + 150, 'the first round says when the first check is due');
    await waitFor(() => checks === 1 && seen.some((s) => s.databases !== null), { what: 'the first quick_check', timeoutMs: 5_000 });
    assert.ok(Date.now() - started >= 150, 'not before integrity_first_after');
    const rounds = seen.length;
    await waitFor(() => seen.length >= rounds + 3, { what: 'three more rounds' });
    assert.equal(checks, 1, 'no second check before integrity_every');
    const asked = await schedule.runNow({ databases: true, provider: true });
    assert.equal(checks, 2, 'databases: true checks now');
    assert.equal(
      seen
        .filter((s) => s.provider !== undefined)
        .map((s) => s.provider)
        .join(),
      '1000',
      'provider: true asks with provider_timeout, the periodic rounds never',
    );
    assert.ok(published.includes(asked), 'an asked round is published too');
  } finally {
    schedule.stop();
  }
});
