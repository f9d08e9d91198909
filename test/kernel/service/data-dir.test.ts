import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { checkDataDirContents, checkServiceDataDir, prepareServiceDataDir } from '../../../kernel/service/data-dir';

const isRoot = process.getuid?.() === 0;

describe("the service's data dir", () => {
  it('is refused where the unit hides it, or when it is relative', () => {
    assert.throws(() => checkServiceDataDir('/home/me/agent'), /the service cannot see \/home\/me\/agent: its unit hides \/home/);
    assert.throws(() => checkServiceDataDir('/tmp/agent'), /hides \/tmp .*\/var\/lib\/homeagent/);
    assert.throws(() => checkServiceDataDir('data'), /--data needs an absolute path/);
    assert.doesNotThrow(() => checkServiceDataDir('/var/lib/homeagent'));
  });

  it('is refused under a folder other users may not pass', (t) => {
    const top = fs.mkdtempSync(path.join('/var/tmp', 'svc-'));
    t.after(() => fs.rmSync(top, { recursive: true, force: true }));
    fs.chmodSync(top, 0o700);
    assert.throws(() => checkServiceDataDir(path.join(top, 'data'), []), new RegExp(`${top} may not be passed by other users.*chmod o\\+x ${top}`));
  });

  it('is refused when it holds files homed did not make; a new, empty or homed folder will do', (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-data-'));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    assert.doesNotThrow(() => checkDataDirContents(path.join(dir, 'new')));
    assert.doesNotThrow(() => checkDataDirContents(dir));
    fs.writeFileSync(path.join(dir, 'index.html'), '');
    assert.throws(() => checkDataDirContents(dir), new RegExp(`${dir} already holds files and is not a homed data dir \\(it has no config\\.db\\)`));
    fs.writeFileSync(path.join(dir, 'config.db'), '');
    assert.doesNotThrow(() => checkDataDirContents(dir));
  });

  it('hands an existing data dir over to the service user, leaving what plugins own to them', { skip: isRoot ? false : 'needs root to chown' }, (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-data-'));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    fs.mkdirSync(path.join(dir, 'plugin-data', 'weather'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'config.db'), '');
    fs.writeFileSync(path.join(dir, 'plugin-data', 'weather', 'state'), '');
    fs.chownSync(path.join(dir, 'plugin-data', 'weather'), 250_000, 250_000);
    fs.chownSync(path.join(dir, 'plugin-data', 'weather', 'state'), 250_000, 250_000);
    fs.chmodSync(dir, 0o701);
    const owner = { uid: 4321, gid: 4321 };
    const done = prepareServiceDataDir(dir, owner);
    assert.deepEqual(done, { created: false, handedOver: 2 });
    for (const mine of [dir, path.join(dir, 'config.db'), path.join(dir, 'plugin-data')]) assert.equal(fs.statSync(mine).uid, 4321, mine);
    assert.equal(fs.statSync(path.join(dir, 'plugin-data', 'weather', 'state')).uid, 250_000);
    assert.equal(fs.statSync(dir).mode & 0o777, 0o751, 'the search bit the plugin walls need is kept');
  });
});
