// waiter's body: reads the command line, talks to homed, maps the outcome to an exit code.
import { HomedAnswerError, HomedUnreachableError } from '../client';
import { ExitCodes } from '../commands/usage';
import { LocateUsageError } from '../locate';
import { WaiterUsageError, parseWaiterArgs, renderWaiterUsage } from './args';
import { runInteractive } from './interactive';
import type { WaiterIO } from './io';
import { runSay } from './say';

/** Runs waiter with `argv` (without node and the script) and resolves with its exit code. */
export async function runWaiter(argv: string[], io: WaiterIO): Promise<number> {
  try {
    const args = parseWaiterArgs(argv, io.env, io.cwd);
    if (args.mode === 'help') {
      io.stdout.write(`${renderWaiterUsage()}\n`);
      return ExitCodes.Ok;
    }
    return args.mode === 'say' ? await runSay(args, io) : await runInteractive(args, io);
  } catch (error) {
    return reportFailure(error, io);
  }
}

function reportFailure(error: unknown, io: WaiterIO): number {
  if (error instanceof WaiterUsageError || error instanceof LocateUsageError) {
    io.stderr.write(`waiter: ${error.message}\n\n${renderWaiterUsage()}\n`);
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
