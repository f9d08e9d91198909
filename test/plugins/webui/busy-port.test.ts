// A taken port in a real homed: the default port moves to a free one (in <run>/webui.port and homectl webui open's
// link); a port the owner set stays put, and the plugin's failure names webui:port and the command that changes it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { callOnce } from '../../../plugins/cli/client';
import { adminSocketInDataDir } from '../../../plugins/cli/locate';
import { DEFAULT_PORT } from '../../../plugins/webui/settings';
import { PORT_FILE } from '../../../plugins/webui/port-file';
import { SocketApi } from '../../../protocol';
import { runHomectl, startHomed, waitFor, type HomedHandle } from '../../harness/homed';

/** Holds 127.0.0.1:`port` (0: any free one) until closed; a port another program already holds is busy as it is. */
async function occupy(port: number): Promise<{ port: number; close(): Promise<void> }> {
  const holder = net.createServer();
  const held = await new Promise<boolean>((resolve, reject) => {
    holder.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(false) : reject(error)));
    holder.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (!held) return { port, close: async () => undefined };
  const address = holder.address() as net.AddressInfo;
  return { port: address.port, close: () => new Promise((resolve) => holder.close(() => resolve())) };
}

async function enableWebui(homed: HomedHandle): Promise<void> {
  await callOnce(adminSocketInDataDir(homed.dataDir), SocketApi.PluginsControl, { name: 'webui', action: 'enable' }).catch(() => undefined);
}

describe('the webui plugin when its default port is taken', () => {
  let homed: HomedHandle;
  let busy: { port: number; close(): Promise<void> };
  before(async () => {
    busy = await occupy(DEFAULT_PORT);
    homed = await startHomed();
  });
  after(async () => {
    await homed?.cleanup();
    await busy?.close();
  });

  it('serves on another port, writes it to <run>/webui.port, and homectl webui open links to it', async () => {
    await enableWebui(homed);
    const portFile = path.join(homed.dataDir, 'run', PORT_FILE);
    const port = await waitFor(() => fs.existsSync(portFile) && Number(fs.readFileSync(portFile, 'utf8')), { what: 'the port file', timeoutMs: 20_000 });
    assert.notEqual(port, DEFAULT_PORT);
    const { plugin } = await callOnce(homed.socket, SocketApi.PluginsInfo, { name: 'webui' });
    assert.equal(plugin.state, 'ready');
    const opened = await runHomectl(['webui', 'open'], { dataDir: homed.dataDir });
    assert.equal(opened.code, 0, opened.stderr);
    assert.match(opened.stdout, new RegExp(`^http://127\\.0\\.0\\.1:${port}/#login=`));
    assert.equal((await fetch(`http://127.0.0.1:${port}/`)).status, 200);
  });
});

describe('the webui plugin when the port its owner set is taken', () => {
  let homed: HomedHandle;
  let busy: { port: number; close(): Promise<void> };
  before(async () => {
    busy = await occupy(0);
    homed = await startHomed();
  });
  after(async () => {
    await homed?.cleanup();
    await busy?.close();
  });

  it('does not move: plugins info, webui open and doctor name webui:port and the fix', async () => {
    await callOnce(homed.socket, SocketApi.ConfigSet, { scope: 'webui', key: 'port', value: busy.port });
    await enableWebui(homed);
    const wanted = `127.0.0.1:${busy.port} is in use by another program; set another port: homectl config set webui:port ${busy.port + 1}`;
    const plugin = await waitFor(
      async () => {
        const { plugin } = await callOnce(homed.socket, SocketApi.PluginsInfo, { name: 'webui' });
        return `${plugin.detail ?? ''} ${plugin.last_exit?.detail ?? ''}`.includes(wanted) && plugin;
      },
      { what: 'the webui plugin to fail naming webui:port', timeoutMs: 20_000 },
    );
    assert.notEqual(plugin.state, 'ready');
    assert.equal(fs.existsSync(path.join(homed.dataDir, 'run', PORT_FILE)), false);
    const info = await runHomectl(['plugins', 'info', 'webui'], { dataDir: homed.dataDir });
    assert.ok(info.stdout.includes(wanted), info.stdout);
    const opened = await runHomectl(['webui', 'open'], { dataDir: homed.dataDir });
    assert.notEqual(opened.code, 0);
    assert.ok(opened.stderr.includes(`why: `) && opened.stderr.includes(wanted), opened.stderr);
    const doctor = await runHomectl(['doctor'], { dataDir: homed.dataDir, timeoutMs: 60_000 });
    assert.ok(doctor.stdout.includes(wanted), doctor.stdout);
  });
});
