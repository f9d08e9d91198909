#!/usr/bin/env node
// homectl: controls a running homed over its Unix socket (plugins, config, status), and backs its data dir up and restores it.
import * as readline from 'node:readline/promises';
import { runHomectl } from './commands/main';
import { readSecret } from './secret-input';
import { ExitCodes } from './commands/usage';
import { silentProgress, terminalProgress } from './progress-bar';
import { TimeoutUsageError, chooseTimeout, takeTimeoutFlag } from './timeouts';

/** Asks on the terminal; undefined when stdin or stdout is not one (scripts must pass --yes). */
async function confirm(question: string): Promise<boolean | undefined> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) return undefined;
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await rl.question(`${question} `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

/** Takes `--timeout SECONDS` (how long to wait for homed, for every request of this run) out of the arguments. */
function applyTimeoutFlag(argv: string[]): string[] | undefined {
  try {
    const { timeoutMs, rest } = takeTimeoutFlag(argv);
    chooseTimeout(timeoutMs);
    return rest;
  } catch (error) {
    if (!(error instanceof TimeoutUsageError)) throw error;
    process.stderr.write(`homectl: ${error.message}\n`);
    return undefined;
  }
}

const argv = applyTimeoutFlag(process.argv.slice(2));
if (argv === undefined) {
  process.exitCode = ExitCodes.Usage;
} else {
  void runHomectl(argv, {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    env: process.env,
    cwd: process.cwd(),
    confirm,
    columns: process.stdout.isTTY ? process.stdout.columns : undefined,
    readSecret: (question) => readSecret(question),
    progress: process.stderr.isTTY ? terminalProgress(process.stderr) : silentProgress,
  }).then((code) => {
    process.exitCode = code;
  });
}
