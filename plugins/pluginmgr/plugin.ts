// The pluginmgr plugin's definition: the agent's plugin_* tools and the HTTP API on 127.0.0.1, both over
// one PackageManager that fetches packages into <plugin data>/downloads and has the kernel install them.
import * as path from 'node:path';
import type { PluginContext, PluginDefinition } from '../../plugin-host';
import { credentialFiles, createToken, removeCredentials, writeCredentials, type WrittenCredentials } from './http/credentials';
import { startApiServer, type ApiServer } from './http/server';
import { PackageManager } from './manager';
import { readPort } from './settings';
import { DOWNLOADS_DIR, StagingArea } from './staging';
import { createPluginTools } from './tools';

interface Running {
  manager: PackageManager;
  server: ApiServer;
  /** The token and port files as this process wrote them. */
  written: WrittenCredentials;
}

/** Builds the plugin. */
export function createPluginmgr(): PluginDefinition {
  let running: Running | undefined;
  const manager = (): PackageManager => {
    if (!running) throw new Error('the pluginmgr plugin is not active');
    return running.manager;
  };

  return {
    activate: async (ctx: PluginContext) => {
      const staging = new StagingArea(path.join(ctx.paths.pluginData, DOWNLOADS_DIR));
      const swept = await staging.prepare();
      if (swept > 0) ctx.log.warn('removed temporary packages left by an earlier run', { count: swept });
      const packages = new PackageManager(ctx, staging);
      const files = credentialFiles(ctx.paths.run);
      // A new token at each start: a leaked one dies with the process that issued it.
      const token = createToken();
      const server = await startApiServer({ port: await readPort(ctx), token, tokenFile: files.token, manager: packages, log: ctx.log });
      let written: WrittenCredentials;
      try {
        written = writeCredentials(files, token, server.port);
      } catch (error) {
        await server.close();
        throw error;
      }
      running = { manager: packages, server, written };
      ctx.log.info('serving the HTTP API', { url: `http://127.0.0.1:${server.port}/plugins`, tokenFile: files.token });
    },
    deactivate: async (ctx: PluginContext) => {
      const current = running;
      running = undefined;
      if (!current) return;
      current.manager.stop();
      const kept = removeCredentials(current.written);
      if (kept.length > 0) ctx.log.warn('left the token and port files in place: another process has written them since', { files: kept });
      await current.server.close();
    },
    tools: createPluginTools(manager),
  };
}
