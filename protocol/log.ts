import { notification, objectSchema } from './descriptor';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LogParams {
  /** Severity. */
  level: LogLevel;
  /** Message text. */
  msg: string;
  /** Structured fields. */
  fields?: Record<string, unknown>;
}
/** plugin → kernel: a log line, re-logged under the plugin's name and kept for `homectl plugins logs`. */
export const LogNotification = notification<LogParams>('logs/write', {
  params: objectSchema({ level: { enum: [...LOG_LEVELS] }, msg: { type: 'string' }, fields: { type: 'object' } }, ['level', 'msg']),
  permission: null,
  aliases: ['log/write'],
});
