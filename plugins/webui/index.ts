// The webui plugin: serves the web page (HTTP or HTTPS), its sign-in, and the client protocol over a WebSocket.
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { definePlugin, type PluginContext } from '../../plugin-host';
import { createClientMethods, openClientSession, type ChatRouter } from '../../plugin-host/client-api';
import type { OutputParams } from '../../protocol';
import { loadAssets } from './assets';
import { createWebuiMethods } from './client-methods';
import { HostPolicy, machineNames } from './hosts';
import { listenForPage } from './listen';
import { LoginStore } from './logins';
import { removePortFile, writePortFile } from './port-file';
import { buildWebServer } from './server';
import { refusalLogger } from './refusal-log';
import { readWebSettings } from './settings';
import { knowledgeUploader } from './upload';
import { PackageUploads } from './package-uploads';

let server: FastifyInstance | undefined;
let router: ChatRouter | undefined;
let logins: LoginStore | undefined;
let hosts: HostPolicy | undefined;
let packages: PackageUploads | undefined;

/** The installer's archive limit, which a package upload may not pass. */
const INSTALLER_ARCHIVE_KEY = 'core.packages.max_archive_mb';
const MIB = 1024 * 1024;
/** Its default, for when the setting cannot be read. */
const DEFAULT_INSTALL_ARCHIVE_BYTES = 32 * MIB;

/** Reads the settings and the built page, opens the login store, and listens. */
async function activate(ctx: PluginContext): Promise<void> {
  const settings = await readWebSettings(ctx);
  const assets = loadAssets();
  logins = new LoginStore(join(ctx.paths.pluginData, 'logins.db'), Date.now, settings.sessionMs);
  hosts = new HostPolicy(settings.bind, settings.tls ? 'https' : 'http', machineNames, settings.hosts);
  packages = new PackageUploads({ kernel: ctx.kernel, pluginData: ctx.paths.pluginData });
  packages.prepare();
  const client = createClientMethods(ctx);
  router = client.router;
  server = await buildWebServer({
    assets,
    logins,
    hosts,
    openSession: (transport) => openClientSession(transport, { methods: client.methods, log: ctx.log, serverName: 'webui plugin', forward: client.forward }),
    knowledgeUpload: knowledgeUploader(ctx.kernel, ctx.paths.pluginData),
    packages: { uploads: packages, maxBytes: () => installerArchiveLimit(ctx) },
    onRefusal: refusalLogger((message, fields) => ctx.log.warn(message, fields)),
    ...(settings.tls ? { tls: settings.tls } : {}),
  });
  const { port, movedFrom } = await listenForPage(server, settings);
  hosts.setPort(port);
  writePortFile(ctx.paths.run, port);
  if (movedFrom !== undefined) {
    ctx.log.warn(`port ${movedFrom} (the default) is in use by another program; serving on ${port} instead`, {
      port,
      fix: `homectl config set webui:port PORT fixes the port`,
    });
  }
  ctx.log.info('serving the web page', { url: hosts.baseUrl(), bind: settings.bind, tls: settings.tls !== undefined });
}

/** Stops listening, ends every page's connection, and removes <run>/webui.port. */
async function deactivate(ctx: PluginContext): Promise<void> {
  const running = server;
  server = undefined;
  removePortFile(ctx.paths.run);
  await running?.close();
  packages?.close();
  packages = undefined;
  logins?.close();
  logins = undefined;
}

/** The installer's own package size cap, read at each upload (a change applies to the next one). */
async function installerArchiveLimit(ctx: PluginContext): Promise<number> {
  const mb = await ctx.config.get(INSTALLER_ARCHIVE_KEY, 'core');
  return typeof mb === 'number' && Number.isSafeInteger(mb) && mb > 0 ? mb * MIB : DEFAULT_INSTALL_ARCHIVE_BYTES;
}

/** The agent's output for the page's inputs and the sessions it follows: to the chat calls waiting for it. */
function output(params: OutputParams): void {
  router?.deliver(params);
}

/** Handlers for `webui/open`, `webui/sessions` and `webui/revoke`, registered as the plugin's client methods. */
export const clientMethods = createWebuiMethods(
  () => {
    if (!logins) throw new Error('the webui plugin is not serving yet; see homectl plugins list');
    return logins;
  },
  () => {
    if (!hosts) throw new Error('the webui plugin is not serving yet; see homectl plugins list');
    return hosts;
  },
);

export default definePlugin({ activate, deactivate, output, clientMethods });
