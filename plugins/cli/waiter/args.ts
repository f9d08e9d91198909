// waiter's command line: -say TEXT, --session NAME, the socket flags homectl takes, --help.
import * as os from 'node:os';
import * as path from 'node:path';
import { locateSocket, preferAdminSocket } from '../locate';
import { SocketApi } from '../../../protocol';
import { MAX_CHAT_TEXT } from '../../../plugin-host/client-api/chat/methods';
import { takeValueFlags } from '../take-flags';
import { REQUEST_TIMEOUTS, takeTimeoutFlag } from '../timeouts';
import { checkMessageLength } from './message-limit';

/** What waiter was asked to do. */
export interface WaiterArgs {
  /** `say`: one message, then exit; `interactive`: the prompt; `help`: the usage. */
  mode: 'say' | 'interactive' | 'help';
  /** The message of `-say`. */
  text: string;
  /** Conversation id. */
  session: string;
  /** The socket, found as homectl finds it (the admin socket when this user may open it). */
  socket: string;
  /** Where the prompt's history is kept; null: not kept. */
  historyFile: string | null;
  /** `--timeout SECONDS` in ms (0: no limit); undefined: the defaults of timeouts.ts. */
  timeoutMs: number | undefined;
}

/** A bad command line: waiter prints it with the usage and exits 2. */
export class WaiterUsageError extends Error {
  override name = 'WaiterUsageError';
}

const SAY_FLAGS = ['-say', '--say'];
const SESSION_FLAGS = ['-session', '--session'];
const HELP_FLAGS = ['-h', '-help', '--help'];

/**
 * Parses argv (without node and the script); `-say` and `--say` both work, so do `--say=TEXT` forms.
 * A -say message longer than homed takes throws MessageTooLongError.
 */
export function parseWaiterArgs(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): WaiterArgs {
  const { timeoutMs, rest: withoutTimeout } = takeTimeoutFlag(argv);
  const location = locateSocket(withoutTimeout, env, cwd);
  let text: string | undefined;
  let session: string | undefined;
  const { taken, rest } = takeValueFlags(location.rest, [...SAY_FLAGS, ...SESSION_FLAGS]);
  for (const { flag, value } of taken) {
    if (SAY_FLAGS.includes(flag)) {
      if (value === undefined) throw new WaiterUsageError(`${flag} needs the message, e.g. waiter -say "hello"`);
      text = value;
    } else {
      if (!value) throw new WaiterUsageError(`${flag} needs a name, e.g. --session kitchen`);
      session = value;
    }
  }
  let help = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (HELP_FLAGS.includes(arg)) {
      help = true;
    } else if (arg.startsWith('-') && arg !== '-') {
      throw new WaiterUsageError(`unknown option ${arg}`);
    } else {
      throw new WaiterUsageError(`unexpected argument "${arg}"; put the message in quotes after -say: waiter -say "${rest.slice(i).join(' ')}"`);
    }
  }
  if (text !== undefined && text.trim() === '') throw new WaiterUsageError('-say needs a message that is not empty');
  if (session !== undefined && session.length > 200) throw new WaiterUsageError('--session takes a name of at most 200 characters');
  if (text !== undefined && !help) checkMessageLength(text, 'the -say message');
  return {
    mode: help ? 'help' : text !== undefined ? 'say' : 'interactive',
    text: text ?? '',
    session: session ?? defaultSession(env),
    // As homectl does: the owner's admin socket when this user may open it, so that the owner's answers are the
    // owner's own (an "always" among them); else the shared socket, where no question offers "always".
    socket: preferAdminSocket(location),
    historyFile: historyFile(env),
    timeoutMs,
  };
}

/** `cli:<user name>`: one person's waiter invocations share one conversation. */
export function defaultSession(env: NodeJS.ProcessEnv): string {
  let user: string | undefined;
  try {
    user = os.userInfo().username;
  } catch {
    // No passwd entry (some containers): fall back to the environment, then to the uid.
  }
  user ||= env['USER'] || env['LOGNAME'] || `uid-${process.getuid?.() ?? 'unknown'}`;
  return `cli:${user}`;
}

/** `$HOMEAGENT_HISTORY` (empty: keep none), else `~/.homeagent_history`, as node's REPL keeps ~/.node_repl_history. */
export function historyFile(env: NodeJS.ProcessEnv): string | null {
  const configured = env['HOMEAGENT_HISTORY'];
  if (configured !== undefined) return configured.trim() === '' ? null : path.resolve(configured);
  const home = env['HOME'] || os.homedir();
  return home ? path.join(home, '.homeagent_history') : null;
}

/** The usage text. */
export function renderWaiterUsage(): string {
  return [
    'usage: waiter [--socket PATH | -data DIR] [--session NAME] [--timeout SECONDS] [-say "MESSAGE"]',
    '',
    '  waiter -say "MESSAGE"   send one message, print the answer as it streams, exit',
    '  waiter                  talk interactively; Ctrl-C stops an answer, Ctrl-C or Ctrl-D at the prompt quits',
    '',
    'options:',
    '  -say, --say MESSAGE     the message (quote it)',
    '  --session NAME          the conversation (default cli:<your user name>, shared by all your waiters)',
    '  --socket PATH, -data DIR  where homed is, as for homectl',
    `  --timeout SECONDS       give up when homed sends nothing for this long (default ${seconds(REQUEST_TIMEOUTS.byMethod[SocketApi.ChatSay.method])} while`,
    `                          an answer comes, ${seconds(REQUEST_TIMEOUTS.defaultMs)} otherwise; 0: no limit); an answer that keeps coming is not cut`,
    '',
    'finding homed: --socket PATH, else -data DIR (DIR/run/homed.sock), else $HOMEAGENT_SOCKET,',
    "else $HOMEAGENT_DATA (…/run/homed.sock), else the installed service's (/var/lib/homeagent), else data/ beside the package",
    'history of the prompt: $HOMEAGENT_HISTORY (empty keeps none), else ~/.homeagent_history',
    '',
    '-say prints only the answer on stdout; notes (tools used, messages that came while you were away) go to stderr.',
    `a message has at most ${MAX_CHAT_TEXT} characters; piped into waiter, each line is one message, and a longer line stops it.`,
    'exit codes: 0 ok, 1 homed answered an error, 2 usage error or a message too long, 3 cannot reach homed or it did not',
    'answer in time, 130 the answer was interrupted',
  ].join('\n');
}

function seconds(ms: number | undefined): string {
  return String((ms ?? 0) / 1000);
}
