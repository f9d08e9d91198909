#!/usr/bin/env node
// waiter: talks to the agent through homed's Unix socket (`waiter -say "…"`, or interactively).
import { runWaiter } from './waiter/main';

void runWaiter(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  onSigint: (handler) => {
    process.on('SIGINT', handler);
    return () => process.off('SIGINT', handler);
  },
}).then((code) => {
  process.exitCode = code;
});
