// How waiter words an approval question and reads the answer typed to it: `Allow exec "ls"? [y]es / [n]o / [a]lways`,
// a choice from its first letter or whole word, and what to say when there is no terminal to ask in.
import type { OutputAsk } from '../../../protocol';

/** The key of each choice: its first letter, or the whole word when another choice starts with the same letter. */
function keysOf(choices: readonly string[]): string[] {
  return choices.map((choice) => {
    const letter = choice.charAt(0);
    return choices.filter((other) => other.charAt(0) === letter).length === 1 ? letter : choice;
  });
}

/** `Allow exec "rm -r old/" in /home/lin? [y]es / [n]o / [a]lways ` (the trailing space is where the answer is typed). */
export function renderQuestion(ask: Pick<OutputAsk, 'question' | 'choices'>): string {
  const keys = keysOf(ask.choices);
  const shown = ask.choices.map((choice, i) => {
    const key = keys[i] as string;
    return key === choice ? `[${choice}]` : `[${key}]${choice.slice(key.length)}`;
  });
  return `${ask.question} ${shown.join(' / ')} `;
}

/** The choice a typed answer names (its key or the whole word, any case), or undefined. */
export function choiceFor(typed: string, choices: readonly string[]): string | undefined {
  const answer = typed.trim().toLowerCase();
  if (answer === '') return undefined;
  const keys = keysOf(choices);
  const at = choices.findIndex((choice, i) => choice === answer || keys[i] === answer);
  return at < 0 ? undefined : choices[at];
}

/** `answer y, n or a`, said when a typed answer names no choice. */
export function renderChoiceHint(choices: readonly string[]): string {
  const keys = keysOf(choices);
  return `answer ${keys.slice(0, -1).join(', ')} or ${keys.at(-1) ?? ''}`;
}

/**
 * Why a question was answered no at once: nobody could be asked (no person said no), and how to allow such a call
 * beforehand.
 */
export function renderNoTerminal(ask: Pick<OutputAsk, 'question'>): string {
  return `waiter: nobody could be asked "${ask.question}" (no terminal): denied; allow it beforehand with ${allowHint(ask.question)}`;
}

/**
 * The homectl command that allows the call a question is about, read back from its words (`Allow exec "…"`, `Allow
 * write_file on /path?`); a tool alone when the words were shortened or say nothing more.
 */
export function allowHint(question: string): string {
  const command = /^Allow (\S+) ("(?:[^"\\]|\\.)*")(?: in .*)?\?$/.exec(question);
  if (command) {
    const line = parseQuoted(command[2] as string);
    if (line !== undefined && !line.endsWith('…')) return `homectl approvals allow ${command[1]} --exact ${shellQuote(line)}`;
  }
  const path = /^Allow (\S+) on (.+)\?$/.exec(question);
  const named = path ? (path[2] as string) : undefined;
  const shownPath = named?.startsWith('"') ? parseQuoted(named) : named;
  if (path && shownPath !== undefined && !shownPath.endsWith('…')) return `homectl approvals allow ${path[1]} --exact ${shellQuote(shownPath)}`;
  const tool = /^Allow (\S+)/.exec(question);
  return `homectl approvals allow ${tool ? tool[1] : 'TOOL'} [PATTERN]`;
}

function parseQuoted(text: string): string | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A word for a POSIX shell: left bare when it is plain, else in single quotes. */
function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
