// The healthcheck plugin in a real homed with real plugin processes: its report arrives as the event
// healthcheck.report and in kernel/status, a failed plugin is a finding with its reason, a corrupted database is
// found by quick_check, and the watchdog's healthcheck hook turns unhealthy while the plugin's process is stopped
// (SIGSTOP) and healthy again once it runs (SIGCONT).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HomedClient, callOnce } from '../../../plugins/cli/client';
import {
  HealthcheckApi,
  HealthcheckEvents,
  SocketApi,
  type EventsStreamItem,
  type HealthReport,
  type KernelStatus,
  type PluginStatus,
} from '../../../protocol';
import { runHomectl, startHomed, waitFor, type HomedHandle } from '../../harness/homed';
import { FAST_POLICY } from '../../kernel/kernel-harness';

// Plugins restart and fail fast, but one that stops answering is left unresponsive (not killed) for the SIGSTOP test.
const POLICY = { ...FAST_POLICY, heartbeat: { intervalMs: 200, timeoutMs: 400, killAfterMs: 60_000 } };
// Reports may be missing for 2 intervals of 1 s, 3 s at least.
const WATCHDOG = { healthcheckIntervals: 2, healthcheckMinBoundMs: 3_000 };

describe('the healthcheck plugin in a real homed', () => {
  let homed: HomedHandle;
  const status = (): Promise<KernelStatus> => callOnce(homed.socket, SocketApi.KernelStatus, {});
  const pluginOf = async (name: string): Promise<PluginStatus | undefined> =>
    (await callOnce(homed.socket, SocketApi.PluginsList, {}).then((r) => (Array.isArray(r) ? r : r.plugins))).find((p) => p.name === name);

  before(async () => {
    homed = await startHomed({
      plugins: ['unsteady'],
      env: { HOMEAGENT_SUPERVISOR_POLICY: JSON.stringify(POLICY), HOMEAGENT_WATCHDOG_POLICY: JSON.stringify(WATCHDOG) },
    });
    await callOnce(homed.socket, SocketApi.ConfigSet, { scope: 'healthcheck', key: 'interval', value: 1000 });
  });
  after(async () => {
    await homed?.cleanup();
  });

  it('homectl doctor with no provider set up: the setup is the fix, each line under the title, the worst findings last', async () => {
    const { code, stdout } = await runHomectl(['doctor'], { socket: homed.socket });
    assert.equal(code, 1, stdout);
    assert.match(
      stdout,
      /^ERROR {4}no LLM provider is set up\n {9}no LLM provider is configured\. Set one up with:\n {9}fix: homectl config set llm\.default work\n {14}homectl config set llm\.provider\.work\.adapter openai\n/m,
      stdout,
    );
    const ranks = stdout.split('\n').flatMap((line) => {
      const mark = /^(ok|info|WARNING|ERROR) /.exec(line)?.[1];
      return mark ? [['ok', 'info', 'WARNING', 'ERROR'].indexOf(mark)] : [];
    });
    assert.ok(ranks.length >= 5, stdout);
    // Running a third-party plugin under its own uid (as root) lets others pass through the data dir: not a finding.
    assert.match(stdout, /^ok {7}the data dir is private$/m, stdout);
    assert.deepEqual(
      ranks,
      [...ranks].sort((a, b) => a - b),
      `worst last:\n${stdout}`,
    );
  });

  it('publishes each report as healthcheck.report and the kernel shows the latest in kernel/status', async () => {
    const client = await HomedClient.connect(homed.socket);
    const reports: HealthReport[] = [];
    let live = false;
    const ended = client.call(
      SocketApi.EventsSubscribe,
      { names: [HealthcheckEvents.Report] },
      {
        onStream: (item) => {
          const it = item as EventsStreamItem;
          if (it.kind === 'subscribed') live = true;
          else reports.push(it.data as HealthReport);
        },
      },
    );
    ended.catch(() => undefined);
    try {
      await waitFor(() => live, { what: 'the subscription to be live' });
      await waitFor(() => reports.length >= 2, { timeoutMs: 15_000, what: 'two healthcheck.report events (interval 1 s)' });
      const event = reports.at(-1) as HealthReport;
      assert.deepEqual(
        ['kernel', 'event-loop', 'plugins', 'disk', 'databases'].filter((check) => !event.findings.some((f) => f.check === check)),
        [],
        `every periodic check is in the report: ${JSON.stringify(event.findings)}`,
      );
      assert.equal(event.findings.find((f) => f.check === 'plugins')?.severity, 'ok');
      assert.ok(!event.findings.some((f) => f.check === 'provider'), 'the provider is asked on demand only');
      const shown = await waitFor(async () => (await status()).health, { what: 'kernel/status to carry health' });
      assert.ok(shown.report, 'kernel/status holds the latest report');
      assert.ok(Date.parse(shown.report.at) >= Date.parse(reports[0]?.at ?? ''), 'the report in status is one of the latest');
      assert.deepEqual(shown.watchdog, { healthy: true, failing: [] });
      const printed = await runHomectl(['status'], { dataDir: homed.dataDir });
      assert.match(printed.stdout, /^health\s+(ok|info|warning|error) \(checked [\d.]+ (ms|s|min|h|d)( \d+ (s|min|h))? ago\)$/m, printed.stdout);
      assert.match(printed.stdout, /^\s+ok\s+the kernel answers: health\/probe answered in [\d.]+ m?s$/m, 'each finding on a line of its own');
    } finally {
      client.close();
    }
  });

  it("names a failed plugin as an error finding with the supervisor's reason", async () => {
    const unsteady = await pluginOf('unsteady');
    assert.ok(unsteady?.pid);
    // Its marker makes every start exit with code 9: the crash-loop breaker marks it failed.
    fs.writeFileSync(path.join(homed.dataDir, 'plugin-data', 'unsteady', 'crash-at-start'), 'yes');
    process.kill(unsteady.pid, 'SIGKILL');
    await waitFor(async () => (await pluginOf('unsteady'))?.state === 'failed', { timeoutMs: 30_000, what: 'unsteady to be failed' });
    const report = await callOnce(homed.socket, HealthcheckApi.Report, {});
    const finding = report.findings.find((f) => f.check === 'plugin:unsteady');
    assert.ok(finding, JSON.stringify(report.findings));
    assert.equal(finding.severity, 'error');
    assert.equal(report.overall, 'error');
    assert.match(finding.detail, /exit|crash|restart/i, finding.detail);
    assert.equal(finding.fix, 'homectl plugins logs unsteady; homectl plugins restart unsteady');
    const shown = await waitFor(async () => (await status()).health?.report?.findings.some((f) => f.check === 'plugin:unsteady') && (await status()), {
      what: 'the finding in kernel/status',
    });
    assert.equal(shown.health?.report?.overall, 'error');
  });

  it("turns the watchdog's healthcheck hook unhealthy while the plugin is stopped, healthy again once it runs", async () => {
    const plugin = await pluginOf('healthcheck');
    assert.equal(plugin?.state, 'ready');
    const pid = plugin.pid as number;
    process.kill(pid, 'SIGSTOP');
    try {
      const sick = await waitFor(async () => ((await status()).health?.watchdog.healthy === false ? await status() : false), {
        timeoutMs: 20_000,
        what: 'the watchdog to count homed unhealthy',
      });
      const failing = sick.health?.watchdog.failing ?? [];
      assert.deepEqual(
        failing.map((f) => f.name),
        ['healthcheck'],
      );
      assert.match(failing[0]?.reason ?? '', /no report from the healthcheck plugin \((ready|unresponsive)\) for \d+(\.\d)? s \(bound 3 s\)/);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await waitFor(async () => (await status()).health?.watchdog.healthy === true, { timeoutMs: 20_000, what: 'the watchdog to count homed healthy again' });
    assert.equal((await pluginOf('healthcheck'))?.pid, pid, 'the same process: its supervisor did not kill it');
  });

  it('finds a corrupted database with quick_check, run in the kernel on demand', async () => {
    await homed.stop();
    fs.rmSync(path.join(homed.dataDir, 'plugin-data', 'unsteady', 'crash-at-start'), { force: true });
    const file = path.join(homed.dataDir, 'index', 'knowledge.db');
    const pageSize = 4096;
    // The last page (an index of the empty chunks table, read by nobody at start) becomes garbage.
    const pages = fs.statSync(file).size / pageSize;
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (pages - 1) * pageSize);
    fs.closeSync(fd);
    const again = await startHomed({ dataDir: homed.dataDir, env: { HOMEAGENT_SUPERVISOR_POLICY: JSON.stringify(POLICY) } });
    try {
      const report = await callOnce(again.socket, HealthcheckApi.Report, { databases: true });
      const knowledge = report.findings.find((f) => f.check === 'database:knowledge.db');
      assert.ok(knowledge, JSON.stringify(report.findings));
      assert.equal(knowledge.severity, 'error');
      assert.match(knowledge.detail, /btreeInitPage|malformed|corrupt/i);
      assert.match(knowledge.fix ?? '', /homectl backup/);
      for (const name of ['config.db', 'agent.db', 'graph.db']) assert.equal(report.findings.find((f) => f.check === `database:${name}`)?.severity, 'ok', name);
    } finally {
      await again.stop();
    }
  });
});
