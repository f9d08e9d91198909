// sd_notify for homed as a Type=notify service. Node cannot send a datagram on a Unix socket, so a short-lived
// systemd-notify child carries each message. On systemd 252 two things make such a message count:
// - systemd-notify waits until systemd has read the message (its default since 246): systemd looks the sender's
//   unit up from its pid, and the message of a child that is gone by then is dropped;
// - with CAP_SYS_ADMIN (which the installed unit grants homed for the network wall) systemd-notify sends homed's
//   pid as the sender (`--pid`), so the message passes NotifyAccess=main and no other process of the unit, a
//   plugin or a command the agent runs, can feed the watchdog. Without it the unit needs NotifyAccess=all.
import { execFile } from 'node:child_process';
import type { Logger } from 'pino';
import { holds, ownPrivilege } from '../supervisor/capabilities';

/** Fields of one sd_notify message (`READY`, `STATUS`, `WATCHDOG`, `STOPPING`, …). */
export type NotifyFields = Record<string, string>;

/** Sends sd_notify messages, one at a time, in order. */
export interface Notifier {
  send(fields: NotifyFields): Promise<void>;
}

const NOTIFY_TIMEOUT_MS = 10_000;

/** The notifier for homed when systemd started it with NOTIFY_SOCKET, else null. */
export function systemdNotifier(env: NodeJS.ProcessEnv, log: Logger, command = 'systemd-notify'): Notifier | null {
  if (!env['NOTIFY_SOCKET']) return null;
  if (!holds(ownPrivilege(), 'SYS_ADMIN')) {
    log.info({}, 'homed lacks CAP_SYS_ADMIN: its systemd notifications come from a systemd-notify child, so the unit needs NotifyAccess=all');
  }
  let queue = Promise.resolve();
  let failures = 0;
  return {
    send(fields) {
      const args = [`--pid=${process.pid}`, ...Object.entries(fields).map(([key, value]) => `${key}=${oneLine(value)}`)];
      const sent = queue.then(
        () =>
          new Promise<void>((resolve) => {
            execFile(command, args, { timeout: NOTIFY_TIMEOUT_MS }, (error, _stdout, stderr) => {
              if (error && failures++ < 3) log.warn({ fields: Object.keys(fields) }, `systemd-notify failed: ${(stderr || error.message).trim()}`);
              resolve();
            });
          }),
      );
      queue = sent;
      return sent;
    },
  };
}

/** A STATUS= value is one line. */
function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, ' ');
}
