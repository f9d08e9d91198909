// The cli plugin: serves the Unix socket that waiter and homectl reach homed through, and the owner-only admin
// socket that homectl run as homed's user takes first.
import { definePlugin, type PluginContext } from '../../plugin-host';
import { KernelEvents, type OutputParams } from '../../protocol';
import { createClientMethods, type ChatRouter } from '../../plugin-host/client-api';
import { LIVE_SETTING_KEYS, readLimits, readMaxClients, readSettings } from './settings';
import { startSocketServer, type SocketServer } from './server';
import { applySocketAccess, readSocketAccess } from './socket-access';
import { ADMIN_MAX_CLIENTS, startAdminSocket } from './admin-socket';

let server: SocketServer | undefined;
let admin: SocketServer | undefined;
let router: ChatRouter | undefined;

/** Claims the socket and starts serving; fails when another homed already serves it. */
async function activate(ctx: PluginContext): Promise<void> {
  const settings = await readSettings(ctx);
  // Only the admin socket's calls are the owner's (SocketCall.fromOwner): the shared socket may be the group's.
  const client = createClientMethods(ctx);
  router = client.router;
  server = await startSocketServer({
    path: settings.socketPath,
    maxClients: settings.maxClients,
    limits: settings.limits,
    methods: client.methods,
    forward: client.forward,
    log: ctx.log,
  });
  const access = await readSocketAccess(ctx);
  const opened = applySocketAccess(settings.socketPath, access, ctx.paths.run);
  ctx.log.info('serving the socket', {
    path: settings.socketPath,
    access,
    mode: opened.socketMode.toString(8),
    maxClients: settings.maxClients,
    ...settings.limits,
  });
  if (opened.blocked) ctx.log.warn(`socket_access is group, but ${opened.blocked}`);
  // The shared socket serves without it: homectl then falls back to the shared socket.
  try {
    admin = await startAdminSocket({ runDir: ctx.paths.run, methods: client.methods, forward: client.forward, limits: settings.limits, log: ctx.log });
    ctx.log.info('serving the admin socket', { path: admin.path, mode: '600', maxClients: ADMIN_MAX_CLIENTS });
  } catch (error) {
    ctx.log.warn(`cannot serve the admin socket, so homectl shares the socket's slots with every client: ${(error as Error).message}`);
  }
  // Following changes is a convenience: the socket serves without it.
  await followLiveSettings(ctx).catch((error: unknown) => ctx.log.warn('socket setting changes apply after a restart', { error: String(error) }));
}

/** Closes the socket, ends every client and removes the socket file. */
async function deactivate(ctx: PluginContext): Promise<void> {
  const running = [server, admin].filter((s): s is SocketServer => s !== undefined);
  server = undefined;
  admin = undefined;
  for (const socket of running) {
    await socket.close();
    ctx.log.info('socket closed', { path: socket.path });
  }
}

/** The agent's output for this plugin's inputs and for sessions it brought: to chat/say, subscribers or the mailbox. */
function output(params: OutputParams): void {
  router?.deliver(params);
}

/** Applies a changed `max_clients` or per-client limit without a restart (socket_path needs one). */
async function followLiveSettings(ctx: PluginContext): Promise<void> {
  await ctx.events.on(KernelEvents.ConfigChanged, (event) => {
    const change = event.data as { scope?: unknown; key?: unknown } | undefined;
    if (change?.scope === ctx.name && change.key === 'socket_access') {
      void changeSocketAccess(ctx);
      return;
    }
    if (change?.scope !== ctx.name || typeof change.key !== 'string' || !LIVE_SETTING_KEYS.includes(change.key)) return;
    Promise.all([readMaxClients(ctx), readLimits(ctx)])
      .then(([max, limits]) => {
        server?.setMaxClients(max);
        server?.setLimits(limits);
        admin?.setLimits(limits);
        ctx.log.info('socket settings changed', { key: change.key, maxClients: max, ...limits });
      })
      .catch((error: unknown) => ctx.log.warn('cannot re-read the socket settings', { key: change.key, error: String(error) }));
  });
}

/** Applies a changed socket_access to the socket being served. */
async function changeSocketAccess(ctx: PluginContext): Promise<void> {
  const running = server;
  if (!running) return;
  try {
    const access = await readSocketAccess(ctx);
    const opened = applySocketAccess(running.path, access, ctx.paths.run);
    ctx.log.info('socket access changed', { access, mode: opened.socketMode.toString(8) });
    if (opened.blocked) ctx.log.warn(`socket_access is group, but ${opened.blocked}`);
  } catch (error) {
    ctx.log.warn('cannot change the socket access', { error: String(error) });
  }
}

export default definePlugin({ activate, deactivate, output });
