// The admin socket in-process: an owner-only folder of its own (0700, refused when it is a link or another user's),
// the socket 0600, and every call through it marked as the owner's (SocketCall.fromOwner), which the shared socket's
// calls are not: the flag a guarded config/set checks.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { callOnce } from '../../../plugins/cli/client';
import { startAdminSocket } from '../../../plugins/cli/admin-socket';
import { startSocketServer } from '../../../plugins/cli/server';
import { DEFAULT_SOCKET_LIMITS } from '../../../plugins/cli/limits';
import { methodTable, row } from '../../../plugin-host/client-api/methods';
import { NO_PARAMS, request } from '../../../protocol';
import { makeTempDir } from '../../harness/homed';
import { silentLog } from './fakes';

/** One method that says whether its caller is the owner. */
const Whoami = request<Record<string, never>, { fromOwner: boolean }>('test/whoami', { params: NO_PARAMS, permission: null });
const WHOAMI = methodTable(row(Whoami, (_params, call) => Promise.resolve({ fromOwner: call.fromOwner })));

function tempRun(t: TestContext): string {
  const dir = makeTempDir('adm-');
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const run = path.join(dir, 'run');
  fs.mkdirSync(run, { mode: 0o710 });
  return run;
}

const forward = (): Promise<unknown> => Promise.reject(new Error('nothing is forwarded here'));

describe('the admin socket', () => {
  it("is 0600 in a 0700 folder of the run folder, and its calls are the owner's; the shared socket's are not", async (t) => {
    const run = tempRun(t);
    const admin = await startAdminSocket({ runDir: run, methods: WHOAMI, forward, limits: DEFAULT_SOCKET_LIMITS, log: silentLog });
    t.after(() => admin.close());
    const shared = await startSocketServer({ path: path.join(run, 'homed.sock'), maxClients: 4, methods: WHOAMI, log: silentLog });
    t.after(() => shared.close());
    assert.equal(admin.path, path.join(run, 'admin', 'homectl.sock'));
    assert.equal(fs.statSync(admin.path).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.dirname(admin.path)).mode & 0o777, 0o700);
    assert.deepEqual(await callOnce(admin.path, Whoami, {}), { fromOwner: true });
    assert.deepEqual(await callOnce(shared.path, Whoami, {}), { fromOwner: false });
  });

  it('makes a folder left group-readable owner-only again, and refuses a link in its place', async (t) => {
    const run = tempRun(t);
    fs.mkdirSync(path.join(run, 'admin'), { mode: 0o755 });
    fs.chmodSync(path.join(run, 'admin'), 0o755);
    const admin = await startAdminSocket({ runDir: run, methods: WHOAMI, forward, limits: DEFAULT_SOCKET_LIMITS, log: silentLog });
    await admin.close();
    assert.equal(fs.statSync(path.join(run, 'admin')).mode & 0o777, 0o700);
    fs.rmSync(path.join(run, 'admin'), { recursive: true });
    const elsewhere = fs.mkdtempSync(path.join(path.dirname(run), 'elsewhere-'));
    fs.symlinkSync(elsewhere, path.join(run, 'admin'));
    await assert.rejects(
      startAdminSocket({ runDir: run, methods: WHOAMI, forward, limits: DEFAULT_SOCKET_LIMITS, log: silentLog }),
      /admin is not a folder \(a link or a file\); remove it/,
    );
    assert.deepEqual(fs.readdirSync(elsewhere), [], 'nothing was made through the link');
  });
});
