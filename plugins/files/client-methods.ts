// changes/list, changes/show, changes/undo: the change sets of every tool plugin, for homectl and other clients.
import type { ClientMethodDefinition } from '../../plugin-host';
import type { ChangeStore } from '../../plugin-host/tracker';
import { ChangesMethods, type ChangesListParams, type ChangesListResult, type ChangesShowParams, type ChangesShowResult, type ChangesUndoParams, type ChangesUndoResult } from '../../protocol/changes';

const ID = { type: 'string', minLength: 1, maxLength: 32 } as const;
/** Undoing a set of thousands of files takes a while on a slow disk. */
const UNDO_TIMEOUT_MS = 120_000;

/** The client methods by wire name, over a store that `store()` gives once the plugin is active. */
export function createChangesClientMethods(store: () => ChangeStore): Record<string, ClientMethodDefinition<never>> {
  const list: ClientMethodDefinition<ChangesListParams> = {
    params: {
      type: 'object',
      additionalProperties: false,
      properties: { session: { type: 'string', minLength: 1, maxLength: 200 }, limit: { type: 'integer', minimum: 1, maximum: 10000 } },
    },
    run: (params): ChangesListResult => ({ sets: store().list(params) }),
  };
  const show: ClientMethodDefinition<ChangesShowParams> = {
    params: { type: 'object', required: ['id'], additionalProperties: false, properties: { id: ID } },
    run: (params): ChangesShowResult => store().show(params.id),
  };
  const undo: ClientMethodDefinition<ChangesUndoParams> = {
    params: { type: 'object', required: ['id'], additionalProperties: false, properties: { id: ID, force: { type: 'boolean' } } },
    timeoutMs: UNDO_TIMEOUT_MS,
    run: (params): ChangesUndoResult => store().undo(params.id, { force: params.force === true }),
  };
  return { [ChangesMethods.List]: list, [ChangesMethods.Show]: show, [ChangesMethods.Undo]: undo } as Record<string, ClientMethodDefinition<never>>;
}
