#!/usr/bin/env node
// homectl: controls a running homed over its Unix socket (plugins, config, status).
import { runHomectl } from './commands/main';

void runHomectl(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
  cwd: process.cwd(),
}).then((code) => {
  process.exitCode = code;
});
