// The allowed roots with real paths: `..`, symlinks anywhere on the way and hard links that leave them are refused.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { loadRoots, resolveInRoots } from '../../../plugin-host/tracker';

describe('allowed roots', () => {
  it('resolves inside paths and refuses .., outward symlinks (any component) and hard-linked files to write', (t) => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'roots-')));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const roots = loadRoots(undefined, dir);
    const root = path.join(dir, 'workspace');
    assert.deepEqual(roots, [root], 'the default root is <data>/workspace, created');
    const outside = path.join(dir, 'outside');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'secret'), 's');
    fs.mkdirSync(path.join(root, 'docs'));
    fs.symlinkSync(outside, path.join(root, 'escape'));
    fs.symlinkSync('docs', path.join(root, 'inner-link'));
    fs.writeFileSync(path.join(root, 'docs', 'a.txt'), 'a');
    fs.linkSync(path.join(outside, 'secret'), path.join(root, 'hard'));

    assert.equal(resolveInRoots('docs/a.txt', roots), path.join(root, 'docs', 'a.txt'));
    assert.equal(resolveInRoots(path.join(root, 'inner-link', 'a.txt'), roots), path.join(root, 'docs', 'a.txt'));
    assert.equal(resolveInRoots('docs/new/deeper.txt', roots, { forWrite: true }), path.join(root, 'docs', 'new', 'deeper.txt'));
    assert.throws(() => resolveInRoots('../outside/secret', roots), /\.\.\/outside\/secret is outside the allowed roots/);
    assert.throws(
      () => resolveInRoots('escape/secret', roots),
      /escape\/secret leads outside the allowed roots through a symlink \(it resolves to .*outside\/secret\)/,
    );
    assert.throws(() => resolveInRoots('escape/new.txt', roots, { forWrite: true }), /leads outside the allowed roots through a symlink/);
    assert.throws(() => resolveInRoots('hard', roots, { forWrite: true }), /hard has 2 hard links; writing it would change files that may be outside/);
    assert.throws(() => loadRoots(['relative/path'], dir), /files:roots must be a list of absolute paths/);
  });
});
