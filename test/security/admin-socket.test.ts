// The owner's homectl does not depend on arrival order: clients filling the shared socket (300 idle ones, or 70
// that reconnect 50 ms after each close) do not keep `homectl status` out, because homectl talks through the
// owner-only admin socket, which has slots of its own. The admin socket is 0600 in a 0700 folder whatever
// cli:socket_access says, and another uid cannot connect to it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { connect, type Socket } from 'node:net';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { callOnce } from '../../plugins/cli/client';
import { adminSocketInDataDir } from '../../plugins/cli/locate';
import { SocketApi } from '../../protocol';
import { connectRaw, runHomectl, startHomed, waitFor, type HomedHandle } from '../harness/homed';
import { checkoutUnreadableBy } from '../harness/other-uid';

/** Past cli:max_clients' default (64) and its one spare slot. */
const IDLE_CLIENTS = 300;
const RECONNECTING_CLIENTS = 70;
const RECONNECT_DELAY_MS = 50;
const OTHER_UID = 65_534;

/** Holds `count` connections to `socket` open; each that the server closes is opened again `delayMs` later (when given). */
function crowd(socket: string, count: number, delayMs?: number): { open(): number; reconnects(): number; stop(): Promise<void> } {
  const live = new Set<Socket>();
  let stopped = false;
  let reconnects = 0;
  const timers = new Set<NodeJS.Timeout>();
  const open = (): void => {
    if (stopped) return;
    const client = connect(socket);
    live.add(client);
    client.on('error', () => undefined);
    // Reads (and drops) what the server sends: a refused client sees its end only once the refusal line is read.
    client.resume();
    client.on('close', () => {
      live.delete(client);
      if (stopped || delayMs === undefined) return;
      reconnects++;
      const timer = setTimeout(() => {
        timers.delete(timer);
        open();
      }, delayMs);
      timers.add(timer);
    });
  };
  for (let i = 0; i < count; i++) open();
  return {
    open: () => live.size,
    reconnects: () => reconnects,
    stop: async () => {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      const closing = [...live].map((client) => new Promise((resolve) => client.once('close', resolve)));
      for (const client of live) client.destroy();
      await Promise.all(closing);
    },
  };
}

describe('the admin socket keeps homectl in whatever fills the shared socket', () => {
  let homed: HomedHandle;

  before(async () => {
    homed = await startHomed();
  });
  after(async () => {
    await homed?.cleanup();
  });

  /** A fresh client of the shared socket is refused: the socket is full (the crowd is real). */
  async function sharedSocketIsFull(): Promise<boolean> {
    const probe = await connectRaw(homed.socket);
    try {
      probe.write(`${JSON.stringify({ id: 1, method: SocketApi.KernelStatus.method, params: {} })}\n`);
      const answer = await probe.nextAnswer(10_000).catch(() => undefined);
      return (answer?.['error'] as { name?: string } | undefined)?.name === 'HA_ERR_TOO_MANY_CLIENTS';
    } finally {
      probe.close();
    }
  }

  it(`homectl status is answered with ${IDLE_CLIENTS} idle clients on the shared socket`, async () => {
    const idle = crowd(homed.socket, IDLE_CLIENTS);
    try {
      await waitFor(() => sharedSocketIsFull(), { what: 'the shared socket to be full', timeoutMs: 30_000 });
      for (let i = 0; i < 3; i++) {
        const status = await runHomectl(['status'], { socket: homed.socket });
        assert.equal(status.code, 0, `homectl status ${i + 1}: ${status.stderr}`);
        assert.match(status.stdout, /pid/);
      }
    } finally {
      await idle.stop();
    }
  });

  it(`homectl status is answered while ${RECONNECTING_CLIENTS} clients reconnect ${RECONNECT_DELAY_MS} ms after each close`, async () => {
    // Settings go through the admin socket too: the shared one may still be full of the churn when they are put back.
    const admin = adminSocketInDataDir(homed.dataDir);
    await callOnce(admin, SocketApi.ConfigSet, { scope: 'cli', key: 'idle_timeout', value: 200 });
    await callOnce(admin, SocketApi.ConfigSet, { scope: 'cli', key: 'max_clients', value: 8 });
    const churn = crowd(homed.socket, RECONNECTING_CLIENTS, RECONNECT_DELAY_MS);
    try {
      await waitFor(() => churn.reconnects() > RECONNECTING_CLIENTS, { what: 'the clients to reconnect after closes', timeoutMs: 30_000 });
      for (let i = 0; i < 5; i++) {
        const status = await runHomectl(['status'], { socket: homed.socket });
        assert.equal(status.code, 0, `homectl status ${i + 1}: ${status.stderr}`);
      }
      assert.ok(churn.reconnects() > RECONNECTING_CLIENTS, `the churn went on (${churn.reconnects()} reconnects)`);
    } finally {
      await churn.stop();
      await callOnce(admin, SocketApi.ConfigUnset, { scope: 'cli', key: 'max_clients' });
      await callOnce(admin, SocketApi.ConfigUnset, { scope: 'cli', key: 'idle_timeout' });
    }
  });

  it('the admin socket is 0600 in a 0700 folder, also when the shared socket is open to the group', async () => {
    const admin = adminSocketInDataDir(homed.dataDir);
    await callOnce(admin, SocketApi.ConfigSet, { scope: 'cli', key: 'socket_access', value: 'group' });
    try {
      await waitFor(() => (fs.statSync(homed.socket).mode & 0o777) === 0o660, { what: 'the shared socket to be 0660' });
      assert.ok(fs.statSync(admin).isSocket());
      assert.equal(fs.statSync(admin).mode & 0o777, 0o600);
      assert.equal(fs.statSync(path.dirname(admin)).mode & 0o777, 0o700);
      assert.equal(fs.statSync(admin).uid, process.geteuid?.());
    } finally {
      await callOnce(admin, SocketApi.ConfigSet, { scope: 'cli', key: 'socket_access', value: 'owner' });
    }
  });

  it('another uid cannot connect to the admin socket', (t) => {
    if (process.geteuid?.() !== 0) return t.skip('needs root to run a process as another uid');
    const unreadable = checkoutUnreadableBy(OTHER_UID);
    if (unreadable) return t.skip(unreadable);
    const admin = adminSocketInDataDir(homed.dataDir);
    const script = `const s=require('net').connect(${JSON.stringify(admin)});s.on('connect',()=>{console.log('connected');s.destroy()});s.on('error',(e)=>console.log(e.code))`;
    const run = spawnSync('setpriv', [`--reuid=${OTHER_UID}`, `--regid=${OTHER_UID}`, '--clear-groups', '--', process.execPath, '-e', script], {
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), 'EACCES');
  });
});
