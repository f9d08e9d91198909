import pino, { type Logger } from 'pino';

/** The kernel's root logger: pino JSON lines on stdout (journald keeps them under systemd). */
export function createRootLogger(level: string): Logger {
  return pino({ level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime });
}
