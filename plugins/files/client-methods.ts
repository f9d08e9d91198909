// changes/list, changes/show, changes/undo (ChangesApi, protocol/changes.ts): the change sets of every tool plugin,
// for homectl and other clients.
import { serve, type ClientMethodDefinition } from '../../plugin-host';
import type { ChangeStore } from '../../plugin-host/tracker';
import { ChangesApi } from '../../protocol/changes';

/** The client methods, over a store that `store()` gives once the plugin is active. */
export function createChangesClientMethods(store: () => ChangeStore): ClientMethodDefinition[] {
  return [
    serve(ChangesApi.List, (params) => ({ sets: store().list(params) })),
    serve(ChangesApi.Show, (params) => store().show(params.id)),
    serve(ChangesApi.Undo, (params) => store().undo(params.id, { force: params.force === true })),
  ];
}
