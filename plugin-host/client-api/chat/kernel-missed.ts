// Answers no client of this plugin received go to the kernel, which keeps them in agent.db for the session's next
// client, whichever plugin that client comes through (waiter, the socket, the page) and across restarts of either.
import { MissedTakeRequest, OutputUndeliveredNotification, shortenMissedText, type ChatStreamItem, type OutputParams } from '../../../protocol';
import type { KernelClient } from '../../sdk';
import { toMissedItem } from './items';

/** Where a session's answers that nobody received wait for its next client. */
export interface MissedKeeper {
  /** Keeps a final output nobody received. */
  keep(output: OutputParams): void;
  /** Removes and answers the session's kept outputs as `missed` items, oldest first. */
  take(session: string): Promise<ChatStreamItem[]>;
}

/** The kernel's keeper, through io/undelivered and io/missed (the plugin needs `io`). */
export function keepMissedInKernel(kernel: KernelClient): MissedKeeper {
  return {
    keep: (output) => {
      const kept: OutputParams = { session: output.session, kind: output.kind };
      if (output.text !== undefined) kept.text = shortenMissedText(output.text, output.session);
      if (output.error !== undefined) kept.error = shortenMissedText(output.error, output.session);
      if (output.code !== undefined) kept.code = output.code;
      if (output.interrupted) kept.interrupted = true;
      kernel.notify(OutputUndeliveredNotification, kept);
    },
    take: async (session) => (await kernel.call(MissedTakeRequest, { session })).missed.map(({ output, at }) => toMissedItem(output, at)),
  };
}
