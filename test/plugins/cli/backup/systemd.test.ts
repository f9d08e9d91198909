// Backup and restore of the installed service, under a real systemd (PID 1 of a systemd-nspawn container): the
// service user backs up while homed runs; root's restore is refused while it runs, and with --stop stops it through
// systemctl (a SIGTERM would be answered by systemd with a restart), swaps the data dir, and hands it to homeagent.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT } from '../../../harness/homed';
import { bootContainer, nspawnProblem, type Container, type InsideResult } from '../../../systemd/nspawn';

const MOUNT = '/opt/homeagent';
const DATA = '/var/lib/homeagent';
const HOMED = path.join(MOUNT, 'dist', 'kernel', 'main.js');
const ARCHIVE = '/srv/backups/service.tar.gz';
const problem = nspawnProblem();

function ok(result: InsideResult, what: string): string {
  assert.equal(result.status, 0, `${what} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

describe('homectl backup and restore of the installed service (systemd-nspawn)', { skip: problem ? `skipped: ${problem}` : false }, () => {
  let box: Container;
  before(async () => {
    box = await bootContainer({ checkout: REPO_ROOT, mountAt: MOUNT, name: `ha-bk-${process.pid}` });
  });
  after(async () => {
    await box?.poweroff();
  });

  it('backs up as homeagent while it runs, and restore --stop stops it with systemctl and keeps the owner', { timeout: 300_000 }, async () => {
    ok(await box.run([process.execPath, HOMED, 'install-service'], { timeoutMs: 180_000 }), 'install-service');
    ok(await box.run(['sh', '-c', 'mkdir -p /srv/backups && chown homeagent:homeagent /srv/backups']), 'the backup folder');
    const taken = await box.run(['homectl', 'backup', ARCHIVE], { user: 'homeagent', cwd: '/srv/backups', timeoutMs: 60_000 });
    assert.match(ok(taken, 'backup as homeagent'), /backed up \d+ files/);
    const modeBefore = ok(await box.run(['stat', '-c', '%a %U:%G', DATA]), 'stat').trim();

    const refused = await box.run(['homectl', 'restore', ARCHIVE], { cwd: '/tmp', timeoutMs: 60_000 });
    assert.equal(refused.status, 1, refused.stderr);
    assert.match(refused.stderr, /is running on \/var\/lib\/homeagent: stop it first .*or pass --stop; nothing was changed/);
    assert.equal((await box.show('homed', ['ActiveState']))['ActiveState'], 'active');

    const restored = await box.run(['homectl', 'restore', ARCHIVE, '--stop', '--json'], { cwd: '/tmp', timeoutMs: 120_000 });
    const result = JSON.parse(ok(restored, 'restore --stop')) as { stopped: string; previous: string };
    assert.equal(result.stopped, 'systemctl');
    const shown = await box.show('homed', ['ActiveState', 'NRestarts']);
    assert.equal(shown['ActiveState'], 'inactive', 'systemd stopped it and did not start it again');
    assert.equal(ok(await box.run(['stat', '-c', '%a %U:%G', DATA]), 'stat').trim(), modeBefore, 'the data dir keeps its mode and owner');
    const foreign = ok(await box.run(['find', DATA, '!', '-user', 'homeagent']), 'find').trim();
    assert.equal(foreign, '', 'everything restored belongs to homeagent');
    assert.match(result.previous, /^\/var\/lib\/homeagent\.before-restore-\d{8}-\d{6}$/);

    ok(await box.run(['systemctl', 'start', 'homed'], { timeoutMs: 120_000 }), 'systemctl start after the restore');
    const status = JSON.parse(ok(await box.run(['homectl', 'status', '--json'], { cwd: '/tmp' }), 'status')) as { plugins: { ready: number; enabled: number } };
    assert.equal(status.plugins.ready, status.plugins.enabled, 'the restored service is ready');
  });
});
