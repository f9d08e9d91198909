// The walk every file operation goes through: symlinks inside the roots followed by walking again (a bounded number
// of times), any other link refused, `..` resolved before the walk, and folders it makes owned by their parent's owner.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { closePlace, locateInRoots, walkTo, type Place } from '../../../plugin-host/tracker';

function scratch(t: { after(fn: () => void): void }): { root: string; outside: string } {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rooted-path-')));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const root = path.join(dir, 'root');
  const outside = path.join(dir, 'outside');
  fs.mkdirSync(path.join(root, 'docs'), { recursive: true });
  fs.mkdirSync(outside);
  return { root, outside };
}

function pathOf(place: Place): string {
  closePlace(place);
  return place.path;
}

describe('the rooted walk', () => {
  it('follows a chain of symlinks that stays inside the roots and refuses one that leaves, a loop, and `..` out', (t) => {
    const { root, outside } = scratch(t);
    fs.symlinkSync('docs', path.join(root, 'a'));
    fs.symlinkSync(path.join(root, 'a'), path.join(root, 'b'));
    fs.symlinkSync('../../outside', path.join(root, 'docs', 'up'));
    fs.symlinkSync('loop2', path.join(root, 'loop1'));
    fs.symlinkSync('loop1', path.join(root, 'loop2'));
    fs.writeFileSync(path.join(root, 'docs', 'x.txt'), 'x');

    assert.equal(pathOf(locateInRoots('b/x.txt', [root])), path.join(root, 'docs', 'x.txt'));
    assert.equal(pathOf(locateInRoots('b', [root])), path.join(root, 'docs'), 'a symlink at the end is followed too');
    assert.equal(pathOf(locateInRoots('docs/../docs/x.txt', [root])), path.join(root, 'docs', 'x.txt'));
    assert.throws(
      () => locateInRoots('docs/up/secret', [root]),
      new RegExp(`docs/up/secret leads outside the allowed roots through a symlink \\(it resolves to ${outside}/secret\\)`),
    );
    assert.throws(() => locateInRoots('loop1/x', [root]), /loop1\/x goes through more than 40 symlinks/);
    assert.throws(() => locateInRoots('../outside/x', [root]), /\.\.\/outside\/x is outside the allowed roots/);
  });

  it('without roots refuses every symlink on the way, and makes missing folders owned by the folder they land in', (t) => {
    const { root } = scratch(t);
    fs.symlinkSync('docs', path.join(root, 'a'));
    assert.throws(() => walkTo(path.join(root, 'a', 'x.txt')), /goes through .*\/a, a symlink \(to docs\); nothing is reached through a symlink here/);
    if (process.geteuid?.() === 0) fs.chownSync(path.join(root, 'docs'), 4242, 4243);
    const place = walkTo(path.join(root, 'docs', 'new', 'deeper', 'f.txt'), { makeFolders: true });
    closePlace(place);
    assert.deepEqual(place.made, [path.join(root, 'docs', 'new'), path.join(root, 'docs', 'new', 'deeper')]);
    if (process.geteuid?.() === 0) {
      const made = fs.statSync(path.join(root, 'docs', 'new', 'deeper'));
      assert.deepEqual([made.uid, made.gid], [4242, 4243]);
    }
  });
});
