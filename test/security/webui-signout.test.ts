// Signing the page out signs it out: `homectl webui revoke --all`, revoking one sign-in, and a session that
// expires all close the page's open WebSocket within a second, so nothing more runs over it (before, a socket
// opened with the cookie kept running config/set after the revoke, and after the cookie's expiry).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { callOnce } from '../../plugins/cli/client';
import { SocketApi, WEBUI_SIGNED_OUT_CLOSE, WebuiApi } from '../../protocol';
import { runHomectl } from '../harness/homed';
import { openPageSocket, signInLive, startLiveWebui, type LiveWebui, type PageSocket, type SocketEnd } from '../plugins/webui/live';

/** The most a close may take after the revoke answered (the finding's bound). */
const CLOSE_WITHIN_MS = 1000;
/** A session's life in the expiry test: long enough to open the socket and use it once on a busy machine. */
const SHORT_SESSION_MS = 4000;

/** Resolves with how the socket ended, or with undefined when it is still open after `ms`. */
async function endedWithin(socket: PageSocket, ms: number): Promise<SocketEnd | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([socket.ended, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function logLevel(live: LiveWebui): Promise<unknown> {
  return (await callOnce(live.homed.socket, SocketApi.ConfigGet, { scope: 'core', key: 'core.log.level' })).entry.value;
}

/** The page's socket is refused or closed: a config/set over it cannot run, and the setting is unchanged. */
async function assertCannotSet(live: LiveWebui, socket: PageSocket): Promise<void> {
  const before = await logLevel(live);
  await assert.rejects(
    socket.call(SocketApi.ConfigSet, { scope: 'core', key: 'core.log.level', value: before === 'debug' ? 'warn' : 'debug' }),
    /not open|closed/,
  );
  assert.equal(await logLevel(live), before);
}

describe('signing the page out closes its open sockets', () => {
  let live: LiveWebui;
  before(async () => {
    live = await startLiveWebui();
  });
  after(async () => {
    await live?.homed.cleanup();
  });

  it('homectl webui revoke --all closes an open WebSocket within a second; its cookie opens no new one', async (t) => {
    const cookie = await signInLive(live);
    const socket = await openPageSocket(live, cookie);
    const set = await socket.call(SocketApi.ConfigSet, { scope: 'core', key: 'core.log.level', value: 'debug' });
    assert.equal(set.error, undefined, 'the signed-in socket works before the revoke');
    const startedAt = performance.now();
    const revoked = await runHomectl(['webui', 'revoke', '--all'], { socket: live.homed.socket });
    assert.equal(revoked.code, 0, revoked.stderr);
    const answeredAt = performance.now();
    const end = await endedWithin(socket, CLOSE_WITHIN_MS);
    assert.ok(end, `the socket is still open ${CLOSE_WITHIN_MS} ms after homectl webui revoke --all answered`);
    assert.ok(end.at - answeredAt < CLOSE_WITHIN_MS);
    t.diagnostic(
      `closed ${Math.round(end.at - startedAt)} ms after homectl webui revoke --all started; homectl exited after ${Math.round(answeredAt - startedAt)} ms`,
    );
    assert.match(end.reason, /signed out/);
    assert.equal(end.code, WEBUI_SIGNED_OUT_CLOSE);
    await assertCannotSet(live, socket);
    await assert.rejects(openPageSocket(live, cookie), /401/);
  });

  it('revoking one sign-in closes that browser’s socket and leaves another’s open', async () => {
    const socket = await openPageSocket(live, await signInLive(live, 'Revoked/1'));
    const kept = await openPageSocket(live, await signInLive(live, 'Kept/1'));
    const { sessions } = await callOnce(live.homed.socket, WebuiApi.Sessions, {});
    const id = sessions.find((s) => s.userAgent === 'Revoked/1')?.id;
    assert.ok(id, `a session of Revoked/1 among ${JSON.stringify(sessions)}`);
    const revoked = await runHomectl(['webui', 'revoke', id], { socket: live.homed.socket });
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.ok(await endedWithin(socket, CLOSE_WITHIN_MS), `the revoked browser's socket is still open ${CLOSE_WITHIN_MS} ms after the revoke answered`);
    assert.equal(kept.open(), true, 'the other browser’s socket stays open');
    assert.equal((await kept.call(SocketApi.KernelStatus, {})).error, undefined);
    await assertCannotSet(live, socket);
    kept.close();
  });

  it('the page’s own sign-out closes its socket', async () => {
    const cookie = await signInLive(live);
    const socket = await openPageSocket(live, cookie);
    const out = await fetch(`${live.origin}/api/logout`, { method: 'POST', headers: { origin: live.origin, cookie } });
    assert.equal(out.status, 204);
    assert.ok(await endedWithin(socket, CLOSE_WITHIN_MS), `the socket is still open ${CLOSE_WITHIN_MS} ms after the sign-out answered`);
    await assertCannotSet(live, socket);
  });
});

describe('a session that expires closes its open socket at expiry', () => {
  let live: LiveWebui;
  before(async () => {
    live = await startLiveWebui({}, { session_timeout: SHORT_SESSION_MS });
  });
  after(async () => {
    await live?.homed.cleanup();
  });

  it(`a ${SHORT_SESSION_MS / 1000} s session's socket closes once it expires; its cookie opens no new one`, async (t) => {
    const cookie = await signInLive(live);
    const signedAt = performance.now();
    const socket = await openPageSocket(live, cookie);
    assert.equal((await socket.call(SocketApi.KernelStatus, {})).error, undefined, 'the socket works while the session lives');
    const end = await endedWithin(socket, SHORT_SESSION_MS + 10_000);
    assert.ok(end, `the socket is still open ${(SHORT_SESSION_MS + 10_000) / 1000} s after sign-in, past the session's ${SHORT_SESSION_MS / 1000} s`);
    assert.ok(end.at - signedAt < SHORT_SESSION_MS + 2 * CLOSE_WITHIN_MS, `closed ${Math.round(end.at - signedAt)} ms after sign-in`);
    t.diagnostic(`closed ${Math.round(end.at - signedAt)} ms after a sign-in of ${SHORT_SESSION_MS} ms`);
    assert.match(end.reason, /expired|signed out/);
    await assertCannotSet(live, socket);
    await assert.rejects(openPageSocket(live, cookie), /401/);
  });
});
