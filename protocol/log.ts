import { NotificationType } from 'vscode-jsonrpc';

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
export namespace LogNotification {
  export const method = 'log/write' as const;
  export const type = new NotificationType<LogParams>(method);
}
