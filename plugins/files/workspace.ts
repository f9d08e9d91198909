// What every files tool needs: the allowed roots (read from the `roots` setting on each call, so a change applies at
// once), the walk to a tool's path inside them, and the change store.
import type { PluginContext } from '../../plugin-host';
import { ChangeStore, loadRoots, locateInRoots, type Place } from '../../plugin-host/tracker';

/** The plugin's state once active. */
export interface Workspace {
  /** The change store under the data dir. */
  store: ChangeStore;
  /** The allowed roots now, real and created. */
  roots(): Promise<string[]>;
  /** Walks a tool's path inside the roots and returns its place, its folder open (see locateInRoots); the caller closes it. */
  locate(input: string, options?: { makeFolders?: boolean }): Promise<Place>;
}

/** Opens the change store and reads the roots through the plugin's settings. */
export function openWorkspace(ctx: PluginContext): Workspace {
  const store = ChangeStore.open(ctx.paths.data);
  const roots = async (): Promise<string[]> => loadRoots(await ctx.config.get('roots'), ctx.paths.data);
  return {
    store,
    roots,
    locate: async (input, options = {}) => locateInRoots(input, await roots(), options),
  };
}
