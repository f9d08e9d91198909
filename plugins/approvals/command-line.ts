// An exec call's command as words, for argv-prefix rules. A command line with shell operators never becomes
// words: what runs after `;`, `|`, `&&`, `$(…)`, a backtick, a redirection or a newline is not what a prefix names.

/** Characters and sequences that make a line more than one plain command. */
const SHELL_OPERATORS = /[;|&<>`\n\r]|\$\(/;

/** The words of a command: an argv array as it is, a plain line split on spaces (quotes kept simple), or undefined when the line has shell operators. */
export function commandWords(command: unknown): string[] | undefined {
  if (Array.isArray(command)) return command.every((word) => typeof word === 'string') ? (command as string[]) : undefined;
  if (typeof command !== 'string' || SHELL_OPERATORS.test(command)) return undefined;
  return splitWords(command);
}

/** Whether a command line has shell operators (a prefix rule never matches it). */
export function hasShellOperators(command: string): boolean {
  return SHELL_OPERATORS.test(command);
}

/** Splits a line without operators into words, honouring single and double quotes and backslashes; undefined for an unclosed quote. */
function splitWords(line: string): string[] | undefined {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] as string;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote) return undefined;
  if (inWord) words.push(word);
  return words;
}

/** The command as one line, for exact rules and questions: an argv array joined with spaces (quoted where needed). */
export function commandLine(command: unknown): string | undefined {
  if (typeof command === 'string') return command.trim();
  if (Array.isArray(command) && command.every((word) => typeof word === 'string')) return (command as string[]).map(quoteWord).join(' ');
  return undefined;
}

function quoteWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
