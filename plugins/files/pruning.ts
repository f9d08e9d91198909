// Keeps the shared change store bounded: a minute after start and then daily, change sets older than the
// `changes_keep_days` setting go, with the blobs nothing names any more. One plugin (this one) prunes for both tools.
import type { PluginContext } from '../../plugin-host';
import { schedulePruning, type ChangeStore } from '../../plugin-host/tracker';

/** Starts the daily pruning; returns what stops it. */
export function startPruning(ctx: PluginContext, store: () => ChangeStore): () => void {
  return schedulePruning(async () => {
    try {
      const keepDays = Number(await ctx.config.get('changes_keep_days'));
      const result = store().prune(keepDays);
      if (result.sets + result.blobs + result.indexRows > 0) ctx.log.info('change store pruned', { keepDays, ...result });
    } catch (error) {
      ctx.log.warn('pruning the change store failed; it is tried again tomorrow', { error: (error as Error).message });
    }
  });
}
