// waiter -say: one message, the answer streamed to stdout, an exit code.
import { SocketMethods, type ChatSayResult, type ChatStreamItem } from '../../../protocol';
import { HomedClient } from '../client';
import { ExitCodes } from '../commands/usage';
import type { WaiterArgs } from './args';
import { EXIT_INTERRUPTED, type WaiterIO } from './io';
import { AnswerPrinter } from './render';

/**
 * Sends `args.text` and prints the answer as it streams: only the answer on stdout, notes on stderr.
 * The first Ctrl-C asks homed to stop the answer (what came so far stays printed, exit 130); a second
 * one drops the connection at once, which stops the turn too.
 */
export async function runSay(args: WaiterArgs, io: WaiterIO): Promise<number> {
  const client = await HomedClient.connect(args.socket);
  const printer = new AnswerPrinter({
    answer: (text) => io.stdout.write(text),
    note: (line) => io.stderr.write(`${line}\n`),
    sameScreen: Boolean(io.stdout.isTTY && io.stderr.isTTY),
    dim: Boolean(io.stderr.isTTY),
  });
  let interrupts = 0;
  const removeSigint = io.onSigint(() => {
    interrupts++;
    if (interrupts === 1) client.notify(SocketMethods.ChatInterrupt, { session: args.session });
    else client.close();
  });
  try {
    const result = await client.request<ChatSayResult>(
      SocketMethods.ChatSay,
      { session: args.session, text: args.text },
      { onStream: (item) => printer.show(item as ChatStreamItem) },
    );
    printer.finish(result);
    if (!result.interrupted) return ExitCodes.Ok;
    io.stderr.write('waiter: the answer was interrupted\n');
    return EXIT_INTERRUPTED;
  } catch (error) {
    printer.endLine();
    if (interrupts > 1) return EXIT_INTERRUPTED;
    throw error;
  } finally {
    removeSigint();
    client.close();
  }
}
