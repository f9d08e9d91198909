// waiter -say: one message, the answer streamed to stdout, an exit code.
import { SocketApi, type ChatStreamItem } from '../../../protocol';
import { HomedClient } from '../client';
import { ExitCodes } from '../commands/usage';
import { requestTimeoutMs } from '../timeouts';
import type { WaiterArgs } from './args';
import { EXIT_INTERRUPTED, type WaiterIO } from './io';
import { askOnTerminal } from './line-question';
import { QuestionDesk } from './questions';
import { AnswerPrinter } from './render';
import { TurnSilence } from './silence';

/**
 * Sends `args.text` and prints the answer as it streams: only the answer on stdout, notes on stderr; an approval
 * question is asked on the terminal (stdin and stderr), or answered no at once without one. The first Ctrl-C
 * answers no to a question shown and asks homed to stop the answer (what came so far stays printed, exit 130); a
 * second one drops the connection at once, which stops the turn too.
 */
export async function runSay(args: WaiterArgs, io: WaiterIO): Promise<number> {
  const client = await HomedClient.connect(args.socket);
  let interrupts = 0;
  const onCtrlC = (): void => {
    interrupts++;
    questions.decline();
    if (interrupts === 1) client.notify(SocketApi.ChatInterrupt, { session: args.session });
    else client.close();
  };
  const terminal = Boolean((io.stdin as { isTTY?: boolean }).isTTY && io.stderr.isTTY);
  const questions = new QuestionDesk({
    answer: (id, choice, unasked) => client.call(SocketApi.ApprovalAnswer, { id, choice, ...(unasked === undefined ? {} : { unasked }) }),
    askLine: terminal ? askOnTerminal(io.stdin, io.stderr as NodeJS.WritableStream, onCtrlC) : undefined,
    show: (item) => printer.show(item),
    write: (text) => io.stderr.write(text),
    warn: (line) => io.stderr.write(`${line}\n`),
  });
  const printer = new AnswerPrinter({
    answer: (text) => io.stdout.write(text),
    note: (line) => io.stderr.write(`${line}\n`),
    sameScreen: Boolean(io.stdout.isTTY && io.stderr.isTTY),
    dim: Boolean(io.stderr.isTTY),
    ask: (ask) => questions.take(ask),
  });
  const silence = new TurnSilence(requestTimeoutMs(SocketApi.ChatSay.method));
  const removeSigint = io.onSigint(onCtrlC);
  try {
    const result = await client.call(
      SocketApi.ChatSay,
      { session: args.session, text: args.text },
      { onStream: (item) => questions.pass(item as ChatStreamItem), silenceAfter: (item) => silence.after(item as ChatStreamItem) },
    );
    await questions.close();
    printer.finish(result);
    if (!result.interrupted) return ExitCodes.Ok;
    io.stderr.write('waiter: the answer was interrupted\n');
    return EXIT_INTERRUPTED;
  } catch (error) {
    await questions.close();
    printer.endLine();
    if (interrupts > 1) return EXIT_INTERRUPTED;
    throw error;
  } finally {
    removeSigint();
    client.close();
  }
}
