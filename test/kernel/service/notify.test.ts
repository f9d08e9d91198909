import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { systemdNotifier } from '../../../kernel/service/notify';

const quiet = pino({ level: 'silent' });

describe('the sd_notify messages', () => {
  it('are none outside systemd', () => {
    assert.equal(systemdNotifier({}, quiet), null);
  });

  it("go through systemd-notify as homed's pid, one at a time and in order, each value on one line", async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'notify-'));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const log = path.join(dir, 'calls');
    // Stands in for systemd-notify: the first call is slow, so a second one sent at once must wait for it.
    const fake = path.join(dir, 'systemd-notify');
    fs.writeFileSync(fake, `#!/bin/sh\n[ -e ${log} ] || sleep 0.3\nprintf '%s|' "$@" >> ${log}\necho >> ${log}\n`, { mode: 0o755 });
    const notifier = systemdNotifier({ NOTIFY_SOCKET: '/run/systemd/notify' }, quiet, fake);
    assert.ok(notifier);
    await Promise.all([notifier.send({ READY: '1', STATUS: 'ready:\n9 plugins' }), notifier.send({ WATCHDOG: '1' })]);
    assert.deepEqual(fs.readFileSync(log, 'utf8').trim().split('\n'), [
      `--pid=${process.pid}|READY=1|STATUS=ready: 9 plugins|`,
      `--pid=${process.pid}|WATCHDOG=1|`,
    ]);
  });
});
