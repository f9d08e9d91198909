#!/usr/bin/env node
// homectl: controls a running homed over its Unix socket (plugins, config, status).
import * as readline from 'node:readline/promises';
import { runHomectl } from './commands/main';

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

void runHomectl(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
  cwd: process.cwd(),
  confirm,
}).then((code) => {
  process.exitCode = code;
});
