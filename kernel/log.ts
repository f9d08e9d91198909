import pino, { type Logger } from 'pino';
import type { ConfigRegistry } from './config';
import { CORE_SCOPE } from './config/scope';

/** The setting that holds the lowest level written; its definition's options are the levels allowed. */
export const LOG_LEVEL_KEY = 'core.log.level';

/** The kernel's root logger: pino JSON lines on stdout (journald keeps them under systemd) and, when given, in `kept` too. */
export function createRootLogger(level: string, kept?: { write(line: string): boolean }): Logger {
  const options = { level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime };
  if (!kept) return pino(options);
  // Each stream takes every level: the logger's own level (core.log.level) is the one filter.
  return pino(
    options,
    pino.multistream([
      { level: 'trace', stream: pino.destination({ fd: 1, sync: true }) },
      { level: 'trace', stream: kept },
    ]),
  );
}

/**
 * Sets `logger`'s level whenever core.log.level changes (to its default when it is unset), so a new level applies
 * at once; child loggers without a level of their own follow their parent. Returns the function that stops it.
 */
export function followLogLevel(config: ConfigRegistry, logger: Logger): () => void {
  return config.onChange((change) => {
    if (change.scope !== CORE_SCOPE || change.key !== LOG_LEVEL_KEY) return;
    const level = config.getValue(CORE_SCOPE, LOG_LEVEL_KEY);
    if (typeof level === 'string' && level !== logger.level) logger.level = level;
  });
}
