// How long homectl and waiter wait for homed: one policy per method, overridden for a run with --timeout.
import { HealthcheckApi, SkillsApi, SocketApi } from '../../protocol';
import { takeValueFlags } from './take-flags';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/**
 * Waits in ms, 0 meaning no limit. For a method that streams, the wait restarts with each item it
 * streams: it bounds silence, not the whole answer, so a long answer that keeps coming is never cut.
 */
export const REQUEST_TIMEOUTS = {
  /** Connecting: a live homed accepts at once, even when busy. */
  connectMs: 10 * SECOND,
  /** Admin requests: homed answers them in well under a second. */
  defaultMs: 30 * SECOND,
  /** Methods that do real work, or wait on something that does. */
  byMethod: {
    // Unpacks and starts the plugin (a handshake may take 30 s).
    [SocketApi.PluginsInstall.method]: 5 * MINUTE,
    // A restart waits for the shutdown (up to 8 s) and the new process's handshake (up to 30 s).
    [SocketApi.PluginsControl.method]: 2 * MINUTE,
    [SocketApi.PluginsRemove.method]: 2 * MINUTE,
    [SocketApi.KnowledgeAdd.method]: 2 * MINUTE,
    [SocketApi.KnowledgeReindex.method]: 10 * MINUTE,
    // Runs a skill's install spec (brew, npm, go, uv, a download); openclaw stops it at 10 min and answers within 11.
    [SkillsApi.Setup.method]: 12 * MINUTE,
    // Copies a skill folder into the skills folder; openclaw gives up at 2 min, so its answer comes first.
    [SkillsApi.Install.method]: 3 * MINUTE,
    // A fresh health round: the provider check stops at healthcheck:provider_timeout (20 s), a quick_check of big databases takes longer.
    [HealthcheckApi.Report.method]: 10 * MINUTE,
    // Silence between two items: longer than a provider may go without data (120 s), so only a stuck homed trips it.
    [SocketApi.ChatSay.method]: 3 * MINUTE,
    // Lasts until the client leaves; nothing may come for hours.
    [SocketApi.ChatSubscribe.method]: 0,
    [SocketApi.EventsSubscribe.method]: 0,
  } as Readonly<Record<string, number>>,
};

/** The --timeout of this run, if given: it replaces every wait above that has a limit. */
let chosenMs: number | undefined;

/** Sets (or, with undefined, clears) the wait chosen on the command line for every request of this process. */
export function chooseTimeout(ms: number | undefined): void {
  chosenMs = ms;
}

/** How long to wait for `method`'s answer (or, if it streams, for its next item); 0: no limit. */
export function requestTimeoutMs(method: string): number {
  const policy = REQUEST_TIMEOUTS.byMethod[method] ?? REQUEST_TIMEOUTS.defaultMs;
  // A method that may rightly stay silent for ever (chat/subscribe) keeps no limit.
  return policy === 0 ? 0 : (chosenMs ?? policy);
}

/** How long to wait for a connection to be accepted; 0: no limit. */
export function connectTimeoutMs(): number {
  return chosenMs ?? REQUEST_TIMEOUTS.connectMs;
}

/** A bad --timeout. */
export class TimeoutUsageError extends Error {
  override name = 'TimeoutUsageError';
}

const TIMEOUT_FLAGS = ['--timeout', '-timeout'];

/** Takes `--timeout SECONDS` (or `--timeout=SECONDS`) out of argv; seconds may have decimals, 0 means no limit. */
export function takeTimeoutFlag(argv: readonly string[]): { timeoutMs: number | undefined; rest: string[] } {
  const { taken, rest } = takeValueFlags(argv, TIMEOUT_FLAGS);
  let timeoutMs: number | undefined;
  for (const { flag, value } of taken) timeoutMs = parseSeconds(flag, value);
  return { timeoutMs, rest };
}

function parseSeconds(flag: string, value: string | undefined): number {
  const seconds = value === undefined || value.trim() === '' ? NaN : Number(value);
  if (!Number.isFinite(seconds) || seconds < 0) {
    throw new TimeoutUsageError(`${flag} needs a number of seconds, e.g. ${flag} 60 (0: wait as long as it takes), got ${value ?? 'nothing'}`);
  }
  return Math.round(seconds * SECOND);
}
