// The files plugin's definition: five file tools confined to the allowed roots (setting `roots`; empty means
// <data>/workspace), writes recorded as change sets, and the changes/* client methods over the shared change store,
// which this plugin prunes daily (pruning.ts).
import type { PluginContext, PluginDefinition, ToolDefinition } from '../../plugin-host';
import { createChangesClientMethods } from './client-methods';
import { createEditFile } from './edit-file';
import { createListFiles } from './list-files';
import { createReadFile } from './read-file';
import { createSearchFiles } from './search-files';
import { startPruning } from './pruning';
import { openWorkspace, type Workspace } from './workspace';
import { createWriteFile } from './write-file';

/** Builds the plugin. */
export function createFilesPlugin(): PluginDefinition {
  let workspace: Workspace | undefined;
  let stopPruning: (() => void) | undefined;
  const active = (): Workspace => {
    if (!workspace) throw new Error('the files plugin is not active');
    return workspace;
  };
  const tools: Record<string, ToolDefinition<never>> = {
    read_file: createReadFile(active) as ToolDefinition<never>,
    list_files: createListFiles(active) as ToolDefinition<never>,
    search_files: createSearchFiles(active) as ToolDefinition<never>,
    write_file: createWriteFile(active) as ToolDefinition<never>,
    edit_file: createEditFile(active) as ToolDefinition<never>,
  };
  return {
    activate: (ctx: PluginContext) => {
      workspace = openWorkspace(ctx);
      stopPruning = startPruning(ctx, () => active().store);
    },
    deactivate: () => {
      stopPruning?.();
      workspace?.store.close();
      workspace = undefined;
    },
    tools,
    clientMethods: createChangesClientMethods(() => active().store),
  };
}
