// The webui plugin in a real homed, over real HTTP on 127.0.0.1: the random port in <run>/webui.port, the
// sign-in exchange, the WebSocket reaching kernel/status, a forged Host refused, and the port file gone on stop.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { callOnce } from '../../../plugins/cli/client';
import { CONTENT_SECURITY_POLICY } from '../../../plugins/webui/security';
import { SocketApi, type KernelStatus } from '../../../protocol';
import { waitFor } from '../../harness/homed';
import { startLiveWebui, type LiveWebui } from './live';

interface ClientSocket {
  send(data: string): void;
  close(): void;
  once(event: 'open' | 'error' | 'message', listener: (data: Buffer) => void): void;
}
const WebSocketClient = createRequire(__filename)('ws') as new (url: string, options: { headers: Record<string, string> }) => ClientSocket;

/** GET with a chosen Host header (fetch sets its own). */
function getWithHost(port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/', headers: { host } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

describe('the webui plugin in homed', () => {
  let live: LiveWebui;
  before(async () => {
    live = await startLiveWebui();
  });
  after(async () => {
    await live?.homed.cleanup();
  });

  it('listens on the port it wrote to <run>/webui.port, showing the sign-in page with its headers', async () => {
    assert.ok(live.port > 0 && live.port !== 8420);
    assert.equal((await live.webuiStatus()).state, 'ready');
    const answer = await fetch(`${live.origin}/`);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('content-security-policy'), CONTENT_SECURITY_POLICY);
    assert.match(await answer.text(), /homectl webui open/);
    assert.equal(await getWithHost(live.port, `rebound.example:${live.port}`), 421);
  });

  it('signs a browser in with a link and serves kernel/status over the WebSocket', async () => {
    const secret = new URL(live.link()).hash.replace('#login=', '');
    const login = await fetch(`${live.origin}/api/login`, {
      method: 'POST',
      headers: { origin: live.origin, 'content-type': 'application/json' },
      body: JSON.stringify({ secret }),
    });
    assert.equal(login.status, 200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
    assert.match(cookie, /^homeagent_session=/);
    const socket = new WebSocketClient(`ws://127.0.0.1:${live.port}/ws`, { headers: { origin: live.origin, cookie } });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const answer = new Promise<Buffer>((resolve) => socket.once('message', resolve));
    socket.send(JSON.stringify({ id: 'w-1', method: SocketApi.KernelStatus.method, params: {} }));
    const { id, result } = JSON.parse((await answer).toString()) as { id: string; result: KernelStatus };
    socket.close();
    assert.equal(id, 'w-1');
    assert.equal(result.pid, live.homed.pid);
    assert.equal(result.version, (await callOnce(live.homed.socket, SocketApi.KernelStatus, {})).version);
  });

  it('removes <run>/webui.port and stops listening when the plugin stops', async () => {
    await callOnce(live.homed.socket, SocketApi.PluginsControl, { name: 'webui', action: 'stop' });
    await waitFor(() => !fs.existsSync(live.portFile), { what: 'the port file to go' });
    await assert.rejects(fetch(`${live.origin}/`), /fetch failed/);
  });
});
