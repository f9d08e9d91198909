import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { dataDirOfUnit } from '../../../protocol';
import { PACKAGE_DATA_DIR, defaultDataDir } from '../../../plugins/cli/installed';
import { REPO_ROOT } from '../../harness/homed';

describe('the default data dir of clients', () => {
  const scratch = (t: { after(fn: () => void): void }): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'installed-'));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    return dir;
  };

  it('is the -data of the installed unit', (t) => {
    const dir = scratch(t);
    const unit = path.join(dir, 'homed.service');
    fs.writeFileSync(unit, '[Service]\nExecStart=/usr/bin/node /opt/homeagent/dist/kernel/main.js -data /srv/homeagent\n');
    assert.deepEqual(defaultDataDir(unit, path.join(dir, 'lib'), '/pkg/data'), { dir: '/srv/homeagent', source: 'service' });
  });

  it("is the service's data dir when its socket is there and no unit is", (t) => {
    const dir = scratch(t);
    const serviceDir = path.join(dir, 'lib');
    fs.mkdirSync(path.join(serviceDir, 'run'), { recursive: true });
    const server = net.createServer().listen(path.join(serviceDir, 'run', 'homed.sock'));
    t.after(() => server.close());
    assert.deepEqual(defaultDataDir(path.join(dir, 'none.service'), serviceDir, '/pkg/data'), { dir: serviceDir, source: 'service' });
  });

  it("is homed's own default beside the package otherwise", (t) => {
    const dir = scratch(t);
    assert.deepEqual(defaultDataDir(path.join(dir, 'none.service'), path.join(dir, 'lib'), '/pkg/data'), { dir: '/pkg/data', source: 'default' });
    assert.equal(PACKAGE_DATA_DIR, path.join(REPO_ROOT, 'data'));
  });

  it('does not depend on the folder a client runs in', (t) => {
    const dir = scratch(t);
    const env = { ...process.env, HOMEAGENT_SOCKET: '', HOMEAGENT_DATA: '' };
    const script = `process.stdout.write(require(${JSON.stringify(path.join(REPO_ROOT, 'dist', 'plugins', 'cli', 'locate.js'))}).locateSocket([]).path)`;
    const from = (cwd: string): string => spawnSync(process.execPath, ['-e', script], { cwd, env, encoding: 'utf8' }).stdout;
    assert.equal(from(dir), from(REPO_ROOT));
    assert.ok(!from(dir).startsWith(dir), from(dir));
  });

  it('reads -data from ExecStart in each spelling', () => {
    assert.equal(dataDirOfUnit('ExecStart=/n /m.js -data /a'), '/a');
    assert.equal(dataDirOfUnit('ExecStart=/n /m.js --data=/b'), '/b');
    assert.equal(dataDirOfUnit('ExecStart=/n /m.js --data /c --x'), '/c');
    assert.equal(dataDirOfUnit('ExecStart=/n /m.js'), null);
    assert.equal(dataDirOfUnit('[Service]\nUser=x'), null);
  });
});
