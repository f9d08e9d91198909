// Host and Origin refusals, written to the log without letting a flood of them flood it: the first refusal of a
// kind (status and name) is written at once; repeats within the window are counted and written as one line when
// the next of that kind comes after the window.

/** One refused request, as the server's hook saw it. */
export interface Refusal {
  /** 421 (a Host this server does not answer to) or 403 (a state change from another origin). */
  status: 421 | 403;
  method: string;
  url: string;
  host: string;
  /** The Origin header, for a 403. */
  origin?: string;
  /** The address the request came from. */
  from: string;
}

/** Where the lines go: the plugin's logger in the plugin, an array in tests. */
export type WarnLine = (message: string, fields: Record<string, unknown>) => void;

/** How often one kind of refusal is written at most. */
export const REFUSAL_LOG_WINDOW_MS = 60_000;

interface Kind {
  loggedAt: number;
  unlogged: number;
}

/** Builds the hook the server calls on each refusal. */
export function refusalLogger(warn: WarnLine, windowMs = REFUSAL_LOG_WINDOW_MS, now: () => number = Date.now): (refusal: Refusal) => void {
  const kinds = new Map<string, Kind>();
  return (refusal) => {
    const key = `${refusal.status} ${refusal.status === 421 ? refusal.host : (refusal.origin ?? '')}`;
    const kind = kinds.get(key);
    const at = now();
    if (kind && at - kind.loggedAt < windowMs) {
      kind.unlogged++;
      return;
    }
    const fields: Record<string, unknown> = { status: refusal.status, method: refusal.method, url: refusal.url, host: refusal.host, from: refusal.from };
    if (refusal.origin !== undefined) fields['origin'] = refusal.origin;
    if (kind && kind.unlogged > 0) fields['repeats_not_logged'] = kind.unlogged;
    const what =
      refusal.status === 421
        ? `a request for the host name ${JSON.stringify(refusal.host)}, which this server does not answer to (DNS rebinding or a wrong address)`
        : `a ${refusal.method} request from origin ${JSON.stringify(refusal.origin ?? '(none)')}, not the page itself`;
    warn(`refused ${what}`, fields);
    if (kinds.size > 1000) kinds.clear();
    kinds.set(key, { loggedAt: at, unlogged: 0 });
  };
}
