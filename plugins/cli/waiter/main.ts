// waiter's body: reads the command line, talks to homed, maps the outcome to an exit code.
import { HomedAnswerError, HomedUnreachableError } from '../client';
import { ExitCodes } from '../commands/usage';
import { LocateUsageError } from '../locate';
import { TimeoutUsageError, chooseTimeout } from '../timeouts';
import { WaiterUsageError, parseWaiterArgs, renderWaiterUsage, type WaiterArgs } from './args';
import { runInteractive } from './interactive';
import type { WaiterIO } from './io';
import { MessageTooLongError } from './message-limit';
import { runSay } from './say';
import { guardPipedLines } from './stdin-guard';

/** Runs waiter with `argv` (without node and the script) and resolves with its exit code. */
export async function runWaiter(argv: string[], io: WaiterIO): Promise<number> {
  try {
    const args = parseWaiterArgs(argv, io.env, io.cwd);
    if (args.mode === 'help') {
      io.stdout.write(`${renderWaiterUsage()}\n`);
      return ExitCodes.Ok;
    }
    chooseTimeout(args.timeoutMs);
    return args.mode === 'say' ? await runSay(args, io) : await runPrompt(args, io);
  } catch (error) {
    return reportFailure(error, io);
  }
}

/** The prompt; piped input is checked line by line, and a line too long for a message stops waiter with exit 2. */
async function runPrompt(args: WaiterArgs, io: WaiterIO): Promise<number> {
  if ((io.stdin as { isTTY?: boolean }).isTTY) return runInteractive(args, io);
  let tooLong = false;
  const stdin = guardPipedLines(io.stdin, (error) => {
    tooLong = true;
    io.stderr.write(`waiter: ${error.message}\n`);
  });
  const code = await runInteractive(args, { ...io, stdin });
  return tooLong ? ExitCodes.Usage : code;
}

function reportFailure(error: unknown, io: WaiterIO): number {
  if (error instanceof WaiterUsageError || error instanceof LocateUsageError || error instanceof TimeoutUsageError) {
    io.stderr.write(`waiter: ${error.message}\n\n${renderWaiterUsage()}\n`);
    return ExitCodes.Usage;
  }
  if (error instanceof MessageTooLongError) {
    io.stderr.write(`waiter: ${error.message}\n`);
    return ExitCodes.Usage;
  }
  if (error instanceof HomedUnreachableError) {
    io.stderr.write(`waiter: ${error.message}\n`);
    return ExitCodes.Unreachable;
  }
  if (error instanceof HomedAnswerError) {
    io.stderr.write(`waiter: ${error.message} (${error.errorName})\n`);
    return ExitCodes.DaemonError;
  }
  io.stderr.write(`waiter: ${error instanceof Error ? error.message : String(error)}\n`);
  return ExitCodes.DaemonError;
}
