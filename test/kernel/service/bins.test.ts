import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { installWrappers, isOurWrapper, removeWrappers } from '../../../kernel/service/bins';
import { KERNEL_VERSION } from '../../../kernel/init/version';
import { REPO_ROOT } from '../../harness/homed';

describe('the commands on PATH', () => {
  it('are wrappers that run node on the compiled entry; a file that is not one is left alone, and only wrappers are removed', (t) => {
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'bin-'));
    t.after(() => fs.rmSync(bin, { recursive: true, force: true }));
    fs.writeFileSync(path.join(bin, 'waiter'), '#!/bin/sh\necho mine\n', { mode: 0o755 });
    const result = installWrappers(process.execPath, REPO_ROOT, bin);
    assert.deepEqual(result, { written: [path.join(bin, 'homed'), path.join(bin, 'homectl')], left: [path.join(bin, 'waiter')] });
    assert.equal(fs.statSync(path.join(bin, 'homed')).mode & 0o777, 0o755);
    const version = spawnSync(path.join(bin, 'homed'), ['--version'], { encoding: 'utf8', cwd: os.tmpdir() });
    assert.equal(version.stdout.trim(), KERNEL_VERSION);
    assert.equal(isOurWrapper(path.join(bin, 'waiter')), false);
    assert.deepEqual(removeWrappers(bin), [path.join(bin, 'homed'), path.join(bin, 'homectl')]);
    assert.deepEqual(fs.readdirSync(bin), ['waiter']);
  });
});
