// Without CAP_KILL (the installed service keeps none), homed reaches a plugin running under a uid of its own as that uid.
import { checkoutUnreadableBy } from '../../harness/other-uid';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { findTool } from '../../../kernel/supervisor/sandbox';
import { pidAlive, REPO_ROOT, waitFor } from '../../harness/homed';

describe('signalling a plugin that runs as another uid', () => {
  it('works from a non-root homed with CAP_SETUID and CAP_SETGID but no CAP_KILL', async (t) => {
    if (process.getuid?.() !== 0 || !findTool('setpriv')) return t.skip('needs root and setpriv to start processes under other uids');
    const unreadable = checkoutUnreadableBy(4321);
    if (unreadable) return t.skip(unreadable);
    const plugin = spawn('setpriv', ['--reuid=250002', '--regid=250002', '--clear-groups', '--', 'sleep', '60'], { detached: true, stdio: 'ignore' });
    t.after(() => {
      if (plugin.exitCode === null) plugin.kill('SIGKILL');
    });
    const exited = new Promise((resolve) => plugin.once('exit', resolve));
    const pid = plugin.pid ?? -1;
    const signal = path.join(REPO_ROOT, 'dist', 'kernel', 'supervisor', 'signal.js');
    const asService = (runAs: string) =>
      spawnSync(
        'setpriv',
        [
          '--reuid=4321',
          '--regid=4321',
          '--clear-groups',
          '--inh-caps=+setuid,+setgid',
          '--ambient-caps=+setuid,+setgid',
          '--',
          process.execPath,
          '-e',
          `require(${JSON.stringify(signal)}).signalPlugin(${pid}, 'SIGKILL', ${runAs})`,
        ],
        { encoding: 'utf8' },
      );
    assert.equal(asService('null').status, 0);
    assert.ok(pidAlive(pid), 'a plain kill is refused: the process lives');
    const helped = asService('{ uid: 250002, gid: 250002 }');
    assert.equal(helped.status, 0, helped.stderr);
    await exited;
    await waitFor(() => !pidAlive(pid), { what: 'the plugin process to be gone' });
  });
});
