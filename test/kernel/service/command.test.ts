import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as os from 'node:os';
import { describe, it } from 'node:test';
import { HOMED_MAIN } from '../../harness/homed';
import { checkoutUnreadableBy } from '../../harness/other-uid';

const homed = (args: string[], asNobody = false): { status: number | null; stdout: string; stderr: string } => {
  const command = asNobody ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', '--', process.execPath] : [process.execPath];
  return spawnSync(command[0] as string, [...command.slice(1), HOMED_MAIN, ...args], { encoding: 'utf8', cwd: os.tmpdir() });
};

describe('homed install-service and uninstall-service', () => {
  it('print their usage with --help', () => {
    const help = homed(['install-service', '--help']);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /^usage: homed install-service \[--data DIR\] \[--user NAME\]/);
  });

  it('refuse an unknown flag or a flag without its value with exit 2', () => {
    const unknown = homed(['install-service', '--bogus']);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /^homed install-service: unknown argument --bogus/);
    assert.match(homed(['install-service', '--data']).stderr, /--data needs a value/);
    assert.equal(homed(['uninstall-service', '--data', '/x']).status, 2);
  });

  it('refuse to run without root, saying so, with exit 1', (t) => {
    if (process.getuid?.() !== 0) {
      const refused = homed(['install-service']);
      assert.equal(refused.status, 1);
      return assert.match(refused.stderr, /run it as root \(sudo homed install-service\)/);
    }
    if (spawnSync('setpriv', ['--version']).status !== 0) return t.skip('setpriv (util-linux) is not installed here');
    const unreadable = checkoutUnreadableBy(65534);
    if (unreadable) return t.skip(unreadable);
    for (const command of ['install-service', 'uninstall-service']) {
      const refused = homed([command], true);
      assert.equal(refused.status, 1, refused.stderr);
      assert.match(refused.stderr, new RegExp(`^homed ${command}: .*run it as root \\(sudo homed ${command}\\)`));
    }
  });
});
