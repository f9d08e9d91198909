import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { applySocketAccess } from '../../../plugins/cli/socket-access';

describe('cli:socket_access', () => {
  const serve = async (t: { after(fn: () => void): void }, top: string): Promise<{ run: string; socket: string }> => {
    const run = path.join(top, 'run');
    fs.mkdirSync(run, { mode: 0o700 });
    const socket = path.join(run, 'homed.sock');
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    t.after(() => server.close());
    return { run, socket };
  };

  it('group: the socket 0660 and its run folder 0710 (reachable by name, not listable); owner: back to 0600 and 0700', async (t) => {
    const top = fs.mkdtempSync(path.join(os.tmpdir(), 'access-'));
    t.after(() => fs.rmSync(top, { recursive: true, force: true }));
    fs.chmodSync(top, 0o750);
    const { run, socket } = await serve(t, top);
    assert.deepEqual(applySocketAccess(socket, 'group', run), { socketMode: 0o660 });
    assert.equal(fs.statSync(socket).mode & 0o777, 0o660);
    assert.equal(fs.statSync(run).mode & 0o777, 0o710);
    assert.equal(fs.statSync(socket).gid, process.getegid?.(), "the group is homed's own");
    assert.deepEqual(applySocketAccess(socket, 'owner', run), { socketMode: 0o600 });
    assert.equal(fs.statSync(socket).mode & 0o777, 0o600);
    assert.equal(fs.statSync(run).mode & 0o777, 0o700);
  });

  it('says which folder above still keeps the group out', async (t) => {
    const top = fs.mkdtempSync(path.join(os.tmpdir(), 'access-'));
    t.after(() => fs.rmSync(top, { recursive: true, force: true }));
    fs.chmodSync(top, 0o700);
    const { run, socket } = await serve(t, top);
    const result = applySocketAccess(socket, 'group', run);
    assert.equal(result.blocked, `${top} does not let the group in (chmod g+x ${top} lets it reach the socket)`);
  });
});
