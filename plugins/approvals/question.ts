// How a call is put to the person and written in the record. The question shows the whole call, never cut: the
// command, its working folder and every variable it sets, each quoted so that no control character, line break or
// direction mark can hide a part of it; a call too long to be shown whole is not asked about (the guard refuses it).
import { MAX_QUESTION_CHARS } from '../../protocol';
import { argsOf, cwdOf, DEFAULT_CWD, envOf } from './call-parts';
import { commandLine } from './command-line';
import type { GuardedCall } from './match';
import { riskOf } from './risky-env';

/** The answer that adds a rule: only the owner's own client may give it. */
export const ALWAYS = 'always';
/** The answers offered; `no` is also the answer of a question nobody answered. */
export const CHOICES = ['yes', 'no', ALWAYS] as const;
/** The answers offered for a call no rule may cover (it sets a variable of RISKY_ENV): "always" could not keep. */
export const CHOICES_WITHOUT_ALWAYS = ['yes', 'no'] as const;

/** Longest text of one argument kept in the record before it is cut (the record is a summary; the question is whole). */
const MAX_RECORDED_CHARS = 120;
/** Longest args summary kept in the record. */
const MAX_SUMMARY_CHARS = 400;

/** A question, and whether the call may be kept as a rule. */
export interface Question {
  text: string;
  /** The variables the call sets that no rule covers (asked every time). */
  risky: string[];
  /** Whether a rule could cover the call: it sets no risky variable, and its `env`, if any, is an object of texts. */
  coverable: boolean;
}

/**
 * `Allow exec "rm -r old/" in /home/lin with LANG="C"?` (a folder or path quoted when it is not plain), `Allow write_file on /home/lin/a.txt?`, `Allow add {"a":1}?`;
 * a call setting variables that change what a program runs ends with a sentence naming them and why.
 */
export function questionFor(call: GuardedCall): Question {
  const args = argsOf(call.args);
  const command = commandLine(args['command']);
  if (command !== undefined) {
    // A call that names no folder runs in the tool's default one (exec: its first root), which the person knows.
    const where = cwdOf(args) === DEFAULT_CWD ? '' : ` in ${plainOrShown(typeof args['cwd'] === 'string' ? args['cwd'] : safeJson(args['cwd']))}`;
    const env = envOf(args);
    const names = env ? Object.keys(env) : [];
    const variables = env
      ? names.length > 0
        ? ` with ${names.map((name) => `${shownName(name)}=${shown(env[name] as string)}`).join(' ')}`
        : ''
      : ` with env ${wholeArgs(args['env'])}`;
    const risky = names.filter((name) => riskOf(name) !== undefined);
    return { text: `Allow ${call.name} ${shown(command)}${where}${variables}?${warning(risky)}`, risky, coverable: env !== undefined && risky.length === 0 };
  }
  if (typeof args['path'] === 'string') return { text: `Allow ${call.name} on ${plainOrShown(args['path'])}?`, risky: [], coverable: true };
  return { text: `Allow ${call.name} ${wholeArgs(call.args)}?`, risky: [], coverable: true };
}

/** Why a call cannot be put to the person whole, or undefined when its question fits. */
export function tooLongToAsk(question: Question): string | undefined {
  if (question.text.length <= MAX_QUESTION_CHARS) return undefined;
  return (
    `the call is too long to be shown whole in a question (${question.text.length.toLocaleString('en-US')} characters, ` +
    `at most ${MAX_QUESTION_CHARS.toLocaleString('en-US')}); it was not run: write the long part to a file and run that instead`
  );
}

/** The call's arguments as short JSON for the record: every text cut to a readable length, the whole capped. */
export function summarizeArgs(args: unknown, max = MAX_SUMMARY_CHARS): string {
  let text: string;
  try {
    text =
      JSON.stringify(args ?? {}, (_key, value: unknown) =>
        typeof value === 'string' && value.length > MAX_RECORDED_CHARS ? `${value.slice(0, MAX_RECORDED_CHARS - 1)}…` : value,
      ) ?? 'null';
  } catch {
    text = String(args);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** ` Careful: GIT_CONFIG_COUNT changes what the program runs (git reads …).` for the risky variables; empty without. */
function warning(risky: string[]): string {
  if (risky.length === 0) return '';
  const reasons = [...new Set(risky.map((name) => riskOf(name) as string))];
  return ` Careful: ${risky.join(', ')} change${risky.length === 1 ? 's' : ''} what the program runs (${reasons.join('; ')}); no rule can allow this, so it is asked every time.`;
}

/** Characters JSON leaves as they are but a terminal or a page acts on or hides: DEL and C1 controls, line and paragraph separators, direction marks and overrides, zero-width characters, the byte order mark. */
const INVISIBLE = /[\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** A text in double quotes with every control and invisible character escaped. */
export function shown(text: string): string {
  return JSON.stringify(text).replace(INVISIBLE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A plain path as it is; one with spaces, quotes, backslashes, controls or invisible characters quoted like `shown`. */
function plainOrShown(text: string): string {
  return /^[^\s"\\]+$/.test(text) && shown(text) === `"${text}"` ? text : shown(text);
}

/** A variable name as it is when it is one, else quoted. */
function shownName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : shown(name);
}

/** A value as JSON, whole, with what a terminal or a page would act on or hide escaped. */
function wholeArgs(args: unknown): string {
  return safeJson(args ?? {}).replace(INVISIBLE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return String(value);
  }
}
