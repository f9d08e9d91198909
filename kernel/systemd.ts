import { execFile } from 'node:child_process';

/** Tells systemd the kernel's state when it runs as a Type=notify service (needs NotifyAccess=all). */
export function notifySystemd(state: string): void {
  if (!process.env['NOTIFY_SOCKET']) return;
  execFile('systemd-notify', [`--pid=${process.pid}`, state], () => undefined);
}
