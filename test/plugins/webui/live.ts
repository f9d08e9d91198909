// A real homed with the webui plugin enabled on a random port: where it listens, and a sign-in link issued into
// the plugin's own login store (what `homectl webui open` answers).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { requestOnce } from '../../../plugins/cli/client';
import { HostPolicy } from '../../../plugins/webui/hosts';
import { LoginStore } from '../../../plugins/webui/logins';
import { PORT_FILE } from '../../../plugins/webui/port-file';
import { SocketMethods, type PluginStatus } from '../../../protocol';
import { startHomed, waitFor, type HomedHandle, type StartOptions } from '../../harness/homed';

export interface LiveWebui {
  homed: HomedHandle;
  port: number;
  origin: string;
  portFile: string;
  /** A fresh one-time link, as webui/open makes it. */
  link(): string;
  webuiStatus(): Promise<PluginStatus>;
}

/** Starts homed (with `options`), sets webui:port to 0, enables the plugin and waits for <run>/webui.port. */
export async function startLiveWebui(options: StartOptions = {}): Promise<LiveWebui> {
  const homed = await startHomed(options);
  const portFile = path.join(homed.dataDir, 'run', PORT_FILE);
  try {
    await requestOnce(homed.socket, SocketMethods.ConfigSet, { scope: 'webui', key: 'port', value: 0 });
    await requestOnce(homed.socket, SocketMethods.PluginsControl, { name: 'webui', action: 'enable' });
    const port = await waitFor(() => fs.existsSync(portFile) && Number(fs.readFileSync(portFile, 'utf8')), { what: `${portFile} to name a port`, timeoutMs: 20_000 });
    const webuiStatus = async (): Promise<PluginStatus> => (await requestOnce<{ plugin: PluginStatus }>(homed.socket, SocketMethods.PluginsInfo, { name: 'webui' })).plugin;
    const link = (): string => {
      const store = new LoginStore(path.join(homed.dataDir, 'plugin-data', 'webui', 'logins.db'));
      try {
        const hosts = new HostPolicy('loopback', 'http');
        hosts.setPort(port);
        return `${hosts.baseUrl()}/#login=${store.issueLink()}`;
      } finally {
        store.close();
      }
    };
    return { homed, port, origin: `http://127.0.0.1:${port}`, portFile, link, webuiStatus };
  } catch (error) {
    await homed.cleanup();
    throw error;
  }
}
