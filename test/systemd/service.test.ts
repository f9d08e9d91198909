// homed as a systemd service, under a real systemd (PID 1 of a systemd-nspawn container, booted once for all of
// these): install-service, readiness, the walls without root, the group's access to the socket, the watchdog,
// the journal, a clean stop, the security score, and uninstall-service. States come from `systemctl show`.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pluginUid } from '../../kernel/supervisor/sandbox';
import { REPO_ROOT } from '../harness/homed';
import { waitFor } from '../harness/wait';
import { bootContainer, nspawnProblem, type Container, type InsideResult } from './nspawn';
import { securityScore } from './security-score';

const MOUNT = '/opt/homeagent';
const DATA = '/var/lib/homeagent';
const HOMED = path.join(MOUNT, 'dist', 'kernel', 'main.js');
const WATCHDOG_SEC = 4;
const problem = nspawnProblem();

/** A command that must succeed; its output, or a failure that shows what it said. */
function ok(result: InsideResult, what: string): string {
  assert.equal(result.status, 0, `${what} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

describe('homed under a real systemd (systemd-nspawn)', { skip: problem ? `skipped: ${problem}` : false }, () => {
  let box: Container;
  const homectl = async (args: string[], user?: string): Promise<InsideResult> =>
    box.run(['homectl', ...args], { ...(user ? { user, cwd: `/home/${user}` } : { cwd: '/tmp' }), timeoutMs: 60_000 });
  const mainPid = async (): Promise<number> => Number((await box.show('homed', ['MainPID']))['MainPID']);

  before(async () => {
    box = await bootContainer({ checkout: REPO_ROOT, mountAt: MOUNT, name: `ha-svc-${process.pid}` });
    // The watchdog test needs no 30 s wait: a drop-in shortens it, the way a person would change it.
    ok(
      await box.run([
        'sh',
        '-c',
        `mkdir -p /etc/systemd/system/homed.service.d && printf '[Service]\\nWatchdogSec=${WATCHDOG_SEC}\\n' > /etc/systemd/system/homed.service.d/test.conf`,
      ]),
      'the drop-in',
    );
  });
  after(async () => {
    await box?.poweroff();
  });

  it('install-service starts it, and systemctl start returns only once every enabled plugin is ready', { timeout: 240_000 }, async () => {
    const installed = await box.run([process.execPath, HOMED, 'install-service'], { timeoutMs: 180_000 });
    assert.match(ok(installed, 'install-service'), /started homed\.service: every enabled plugin is ready/);
    ok(await box.run(['systemctl', 'stop', 'homed']), 'systemctl stop');
    ok(await box.run(['systemctl', 'start', 'homed'], { timeoutMs: 120_000 }), 'systemctl start');
    const status = JSON.parse(ok(await homectl(['status', '--json']), 'homectl status')) as { plugins: { ready: number; enabled: number }; dataDir: string };
    assert.ok(status.plugins.enabled > 0);
    assert.equal(status.plugins.ready, status.plugins.enabled, 'every enabled plugin is ready when start returns');
    assert.equal(status.dataDir, DATA, 'homectl found the installed service from /tmp');
    const shown = await box.show('homed', ['ActiveState', 'SubState', 'StatusText', 'NotifyAccess', 'Type', 'WatchdogUSec', 'User']);
    assert.deepEqual(
      [shown['ActiveState'], shown['SubState'], shown['Type'], shown['NotifyAccess'], shown['User']],
      ['active', 'running', 'notify', 'main', 'homeagent'],
    );
    assert.match(shown['StatusText'] ?? '', /^ready: \d+ plugins, 0 turns running(; health (ok|info|warning|error))?$/);
    assert.equal(shown['WatchdogUSec'], `${WATCHDOG_SEC}s`);
    // The healthcheck plugin's first report reaches the STATUS= line with the next keep-alive.
    await waitFor(async () => /; health (ok|info|warning|error)$/.test((await box.show('homed', ['StatusText']))['StatusText'] ?? ''), {
      timeoutMs: 30_000,
      what: 'the health word in StatusText',
    });
  });

  it('homectl doctor under systemd shows the unit active and the data dir in its group', { timeout: 120_000 }, async () => {
    const run = await homectl(['doctor', '--json']);
    const { findings, summary } = JSON.parse(run.stdout) as { findings: { check: string; severity: string; title: string }[]; summary: { exit_code: number } };
    assert.equal(run.status, summary.exit_code, run.stderr);
    const of = (check: string) => findings.find((f) => f.check === check);
    assert.deepEqual([of('service')?.severity, of('service')?.title], ['ok', 'homed.service is active']);
    assert.equal(of('data-dir')?.severity, 'ok', JSON.stringify(of('data-dir')));
    assert.equal(of('homed')?.severity, 'ok');
  });

  it('keeps every wall around a third-party plugin up without root, and stops one that ignores SIGTERM', { timeout: 120_000 }, async () => {
    for (const fixture of ['sandbox-probe', 'ignore-sigterm']) {
      ok(
        await box.run(['node', path.join(MOUNT, 'scripts', 'hmap-pack'), '--out', '/srv/hmaps', path.join(MOUNT, 'test', 'fixtures', 'plugins', fixture)]),
        `pack ${fixture}`,
      );
      ok(await homectl(['plugins', 'install', `/srv/hmaps/${fixture}-1.0.0.hmap`, '--yes']), `install ${fixture}`);
    }
    const info = JSON.parse(ok(await homectl(['plugins', 'info', 'sandbox-probe', '--json']), 'plugins info')) as {
      pid: number;
      sandbox: { wall: string; active: boolean; note: string }[];
    };
    for (const wall of ['node-permission-model', 'open-files-cap', 'own-uid', 'no-network']) {
      const found = info.sandbox.find((w) => w.wall === wall);
      assert.equal(found?.active, true, `${wall}: ${found?.note ?? 'not reported'}`);
    }
    const kernel = await mainPid();
    const ps = (pid: number, field: string): Promise<InsideResult> => box.run(['ps', '-o', `${field}=`, '-p', String(pid)]);
    assert.equal(ok(await ps(kernel, 'user'), 'ps').trim(), 'homeagent', 'homed itself is not root');
    assert.equal(Number(ok(await ps(info.pid, 'uid'), 'ps').trim()), pluginUid('sandbox-probe'));
    const cli = JSON.parse(ok(await homectl(['plugins', 'info', 'cli', '--json']), 'info cli')) as { pid: number };
    for (const [pid, who] of [
      [info.pid, 'a sandboxed plugin'],
      [cli.pid, 'a built-in plugin'],
    ] as const) {
      assert.match(ok(await box.run(['grep', 'Cap', `/proc/${pid}/status`]), 'caps'), /CapEff:\s+0+\n(.*\n)*CapAmb:\s+0+$/m, `${who} holds no capability`);
    }
    const netns = async (pid: number): Promise<string> => ok(await box.run(['readlink', `/proc/${pid}/ns/net`]), 'readlink').trim();
    assert.notEqual(await netns(info.pid), await netns(kernel), 'a network namespace of its own');

    // homed has no CAP_KILL: it reaches a plugin that ignores shutdown and SIGTERM as that plugin's uid.
    const stubborn = JSON.parse(ok(await homectl(['plugins', 'info', 'ignore-sigterm', '--json']), 'info')) as { pid: number };
    ok(await homectl(['plugins', 'stop', 'ignore-sigterm']), 'plugins stop');
    assert.notEqual((await ps(stubborn.pid, 'pid')).status, 0, 'its process is gone');
    ok(await homectl(['plugins', 'remove', 'ignore-sigterm', '--purge']), 'plugins remove --purge');
    assert.notEqual((await box.run(['test', '-e', `${DATA}/plugin-data/ignore-sigterm`])).status, 0, 'its data folder (owned by its uid) is gone');
  });

  it('serves a member of the group homeagent through waiter and homectl, and refuses another user', { timeout: 120_000 }, async () => {
    ok(
      await box.run([
        'systemd-run',
        '--unit=fake-llm',
        '--collect',
        process.execPath,
        path.join(MOUNT, 'dist', 'test', 'systemd', 'fake-llm-main.js'),
        '/run/fake-llm.port',
      ]),
      'fake LLM',
    );
    const port = await waitFor(async () => (await box.run(['cat', '/run/fake-llm.port'])).stdout.trim(), { what: 'the fake LLM port', timeoutMs: 30_000 });
    const settings: [string, string][] = [
      ['llm.default', 'main'],
      ['llm.provider.main.adapter', 'openai'],
      ['llm.provider.main.base_url', `http://127.0.0.1:${port}/v1`],
      ['llm.provider.main.model', 'fake-model'],
      ['llm.provider.main.api_key', 'sk-test'],
    ];
    for (const [key, value] of settings) ok(await homectl(['config', 'set', key, value]), `config set ${key}`);
    ok(await box.run(['useradd', '--create-home', '--groups', 'homeagent', 'alice']), 'useradd alice');
    ok(await box.run(['useradd', '--create-home', 'bob']), 'useradd bob');

    const said = await box.run(['waiter', '-say', 'hello from alice'], { user: 'alice', cwd: '/home/alice', timeoutMs: 60_000 });
    assert.match(ok(said, 'waiter as alice'), /echo: hello from alice/);
    ok(await homectl(['status'], 'alice'), 'homectl status as alice');
    for (const peek of [
      ['cat', `${DATA}/config.db`],
      ['ls', `${DATA}/run`],
      ['ls', `${DATA}/plugin-data`],
    ]) {
      assert.notEqual((await box.run(peek, { user: 'alice' })).status, 0, `alice may not ${peek.join(' ')}`);
    }
    const refused = await box.run(['waiter', '-say', 'hello from bob'], { user: 'bob', cwd: '/home/bob' });
    assert.equal(refused.status, 3, refused.stderr);
    assert.match(refused.stderr, /permission denied.*usermod -aG homeagent/);
  });

  it('writes plugin lines to the journal under their names', async () => {
    const lines = ok(await box.run(['journalctl', '-u', 'homed', '-t', 'homed', '-o', 'cat', '--no-pager']), 'journalctl')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.ok(
      lines.some((l) => l['plugin'] === 'cli' && String(l['msg']).startsWith('serving the socket')),
      'a cli line',
    );
    assert.ok(
      lines.some((l) => l['plugin'] === 'timer'),
      'a timer line',
    );
  });

  it('scores 2.5 or better in systemd-analyze security', async (t) => {
    const offline = securityScore(
      ok(await box.run(['systemd-analyze', 'security', '--offline=yes', '--no-pager', '/etc/systemd/system/homed.service']), 'offline analysis'),
    );
    const online = securityScore(ok(await box.run(['systemd-analyze', 'security', '--no-pager', 'homed.service']), 'analysis of the running unit'));
    t.diagnostic(`systemd-analyze security: ${offline} offline, ${online} for the running unit`);
    assert.ok(offline <= 2.5, `offline ${offline}`);
    assert.ok(online <= 2.5, `online ${online}`);
  });

  it('is killed and restarted by the watchdog when the kernel stops answering', { timeout: 120_000 }, async (t) => {
    const before = await box.show('homed', ['MainPID', 'NRestarts']);
    // A minute of tests at WatchdogSec=4s without a kill: the keep-alives (sent as homed's pid) arrive.
    assert.equal(before['NRestarts'], '0');
    const kernel = Number(before['MainPID']);
    assert.ok(kernel > 0, `homed runs (MainPID ${before['MainPID']})`);
    const stoppedAt = Date.now();
    ok(await box.run(['kill', '-STOP', String(kernel)]), 'SIGSTOP');
    let watchdogSeenAt = 0;
    const restarted = await waitFor(
      async () => {
        const now = await box.show('homed', ['Result', 'NRestarts', 'ActiveState', 'SubState', 'MainPID']);
        if (now['Result'] === 'watchdog' && watchdogSeenAt === 0) watchdogSeenAt = Date.now();
        return Number(now['NRestarts']) === Number(before['NRestarts']) + 1 && now['ActiveState'] === 'active' && now['SubState'] === 'running' && now;
      },
      { what: 'the watchdog to restart homed', timeoutMs: 90_000, intervalMs: 100 },
    );
    assert.notEqual(restarted['MainPID'], before['MainPID']);
    const journal = ok(await box.run(['journalctl', '-u', 'homed', '--no-pager', '-o', 'cat']), 'journalctl');
    assert.match(journal, /Watchdog timeout/);
    assert.match(journal, /Failed with result 'watchdog'/);
    if (watchdogSeenAt) t.diagnostic(`SIGSTOP to Result=watchdog: ${watchdogSeenAt - stoppedAt} ms with WatchdogSec=${WATCHDOG_SEC}s`);
  });

  it('leaves no process of homed or its plugins after systemctl stop', { timeout: 120_000 }, async () => {
    ok(await box.run(['systemctl', 'stop', 'homed'], { timeoutMs: 90_000 }), 'systemctl stop');
    const shown = await box.show('homed', ['ActiveState', 'MainPID']);
    assert.deepEqual([shown['ActiveState'], shown['MainPID']], ['inactive', '0']);
    const left = ok(await box.run(['ps', '-eo', 'pid=,uid=,args=']), 'ps')
      .split('\n')
      .filter((line) => line.includes(`${MOUNT}/dist/`) || line.includes('/var/lib/homeagent/sandbox-host/') || Number(line.trim().split(/\s+/)[1]) >= 200_000)
      .filter((line) => !line.includes('fake-llm-main'));
    assert.deepEqual(left, []);
  });

  it('uninstall-service keeps the data and the user unless --purge', { timeout: 120_000 }, async () => {
    ok(await box.run([process.execPath, HOMED, 'uninstall-service']), 'uninstall-service');
    for (const gone of ['/etc/systemd/system/homed.service', '/usr/local/bin/homectl', '/usr/local/bin/waiter', '/usr/local/bin/homed']) {
      assert.notEqual((await box.run(['test', '-e', gone])).status, 0, `${gone} is removed`);
    }
    ok(await box.run(['test', '-e', `${DATA}/config.db`]), 'the data is kept');
    ok(await box.run(['getent', 'passwd', 'homeagent']), 'the user is kept');
    ok(await box.run([process.execPath, HOMED, 'uninstall-service', '--purge']), 'uninstall-service --purge');
    assert.notEqual((await box.run(['test', '-e', DATA])).status, 0, 'the data is deleted');
    assert.notEqual((await box.run(['getent', 'passwd', 'homeagent'])).status, 0, 'the user is removed');
  });
});
