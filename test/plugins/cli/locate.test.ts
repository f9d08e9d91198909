import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { DefaultDataDir } from '../../../plugins/cli/installed';
import { LocateUsageError, adminSocketInDataDir, locateSocket, preferAdminSocket } from '../../../plugins/cli/locate';
import { makeTempDir } from '../../harness/homed';

const cwd = '/home/me';

describe('locateSocket', () => {
  it('prefers --socket, then -data, then HOMEAGENT_SOCKET, then HOMEAGENT_DATA, then the default data dir', () => {
    const env = { HOMEAGENT_SOCKET: '/env/s.sock', HOMEAGENT_DATA: '/env/data' };
    assert.equal(locateSocket(['--socket', '/x.sock', '-data', '/d'], env, cwd).path, '/x.sock');
    assert.equal(locateSocket(['-data', '/d'], env, cwd).path, '/d/run/homed.sock');
    assert.equal(locateSocket(['-data', '/d'], env, cwd).dataDir, '/d', 'the data dir named');
    assert.equal(locateSocket(['--socket', '/srv/ha/run/homed.sock'], env, cwd).dataDir, '/srv/ha', "the folder above the socket's run/");
    assert.equal(locateSocket(['--data', 'rel'], env, cwd).path, '/home/me/rel/run/homed.sock');
    assert.equal(locateSocket([], env, cwd).path, '/env/s.sock');
    assert.equal(locateSocket([], { HOMEAGENT_DATA: '/env/data' }, cwd).path, '/env/data/run/homed.sock');
    const service = (): DefaultDataDir => ({ dir: '/var/lib/homeagent', source: 'service' });
    assert.deepEqual(locateSocket(['status'], {}, cwd, service), {
      path: '/var/lib/homeagent/run/homed.sock',
      dataDir: '/var/lib/homeagent',
      source: 'service',
      rest: ['status'],
    });
    assert.equal(locateSocket([], { HOMEAGENT_DATA: '/env/data' }, cwd, service).path, '/env/data/run/homed.sock', 'the environment comes first');
  });

  it('takes the location flags out wherever they stand, in both spellings', () => {
    const found = locateSocket(['plugins', '--socket=/a.sock', 'list', '--json'], {}, cwd);
    assert.deepEqual(found, { path: '/a.sock', dataDir: '/', source: '--socket', rest: ['plugins', 'list', '--json'] });
    assert.equal(locateSocket(['-data=/d', 'status'], {}, cwd).path, '/d/run/homed.sock');
  });

  it('leaves arguments after -- alone', () => {
    assert.deepEqual(locateSocket(['config', 'set', 'k', '--', '-data'], {}, cwd).rest, ['config', 'set', 'k', '--', '-data']);
  });

  it('refuses a location flag without a value', () => {
    assert.throws(() => locateSocket(['status', '--socket'], {}, cwd), LocateUsageError);
    assert.throws(() => locateSocket(['-data='], {}, cwd), /-data needs a value/);
  });

  it("homectl takes the data dir's admin socket when it may open it, else the shared one", async (t) => {
    const dataDir = makeTempDir('loc-');
    t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const location = locateSocket(['--socket', path.join(dataDir, 'run', 'homed.sock')], {}, cwd);
    const admin = adminSocketInDataDir(dataDir);
    assert.equal(admin, path.join(dataDir, 'run', 'admin', 'homectl.sock'));
    assert.equal(preferAdminSocket(location), location.path, 'no admin socket: the shared one');
    fs.mkdirSync(path.dirname(admin), { recursive: true, mode: 0o700 });
    fs.writeFileSync(admin, '');
    assert.equal(preferAdminSocket(location), location.path, 'a file that is no socket is not taken');
    fs.rmSync(admin);
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(admin, resolve));
    t.after(() => server.close());
    assert.equal(preferAdminSocket(location), admin);
  });
});
