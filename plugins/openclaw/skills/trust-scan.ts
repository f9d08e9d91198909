// The trust scan of a skill's text: every shell command found, and the ones that do what the 2026 ClawHub malware
// did (pipe a download into a shell, decode base64, run a string or a download as code), with line numbers. Each
// command is first read as the shell would read it (shell-words.ts), so an escape, a quote or a variable does not
// hide it; each flag names the deed in words and quotes the part of the command that does it.
import { listCodePieces, type CodePiece, type PieceKind } from './code-pieces';
import { readAsShell, type ShellVars } from './shell-words';

export type TrustFlag =
  | 'pipe-to-shell'
  | 'hidden-command'
  | 'base64-decode'
  | 'shell-c'
  | 'eval'
  | 'inline-fetch'
  | 'source-download'
  | 'download-executable'
  | 'chmod-after-download'
  | 'run-download'
  | 'network-shell'
  | 'obfuscated';

/** Each flag in words, for what every install path shows. */
export const TRUST_FLAG_WORDS: Record<TrustFlag, string> = {
  'pipe-to-shell': 'pipes text (often a download) straight into a shell or an interpreter',
  'hidden-command': 'runs a program whose name is hidden in a variable',
  'base64-decode': 'decodes base64 or hex, the usual way to hide a payload',
  'shell-c': 'runs a string as a shell script (sh -c / bash -c)',
  eval: 'evaluates a string as code',
  'inline-fetch': 'runs inline code (python -c, perl -e, ruby -e, node -e …) that fetches from the network',
  'source-download': 'runs a downloaded file in the current shell (source or .)',
  'download-executable': 'downloads an executable or script file',
  'chmod-after-download': 'makes a file executable after downloading it',
  'run-download': 'runs a script with a shell after downloading something',
  'network-shell': 'connects a shell to the network (/dev/tcp, nc -e), the way a remote control is opened',
  obfuscated: 'is written with escapes, quotes or variables that hide what it runs',
};

/** Where a command was found: a part of a Markdown file, or a line of a script. */
export type CommandPlace = PieceKind | 'script';

/** One flag on a command: which, and the part of the command (as the shell reads it) that earned it. */
export interface FoundFlag {
  flag: TrustFlag;
  found: string;
}

export interface ScannedCommand {
  /** 1-based line in its file. */
  line: number;
  text: string;
  where: CommandPlace;
  flags: FoundFlag[];
}

export interface TrustScan {
  /** Every command found, in file order (a script's unflagged lines are counted, not listed). */
  commands: ScannedCommand[];
  /** The commands with at least one flag. */
  flagged: ScannedCommand[];
}

/** What a scan of one file has seen so far: a download (for the flags that need one first) and assigned variables. */
interface ScanState {
  downloaded: boolean;
  vars: ShellVars;
}

const SHELL_LANGS = new Set([
  '',
  'bash',
  'sh',
  'shell',
  'zsh',
  'fish',
  'ksh',
  'console',
  'terminal',
  'shell-session',
  'shellsession',
  'sh-session',
  'powershell',
  'pwsh',
  'ps1',
  'cmd',
  'bat',
]);
const SHELL = String.raw`(?:\/[\w./-]*\/)?(?:ba|z|da|k|fi|c|tc)?sh\b`;
/** Interpreters of scripting languages, by the names their programs go by. */
const INTERPRETER = String.raw`(?:\/[\w./-]*\/)?(?:python[\d.]*|perl|ruby|node|nodejs|php|bun|lua)\b`;
/** Interpreters that run a program read from their standard input when given none (or `-`). */
const STDIN_INTERPRETER = String.raw`(?:\/[\w./-]*\/)?(?:python[\d.]*|perl|ruby|node|nodejs|php|deno\s+run|bun|lua|osascript)(?=\s*(?:$|-(?:\s|$)|[;&|)]))`;
const PIPE_PREFIX = String.raw`\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+(?:-\S+\s+)*(?:\S+=\S*\s+)*)?`;
const INTERPRETER_INLINE =
  /\b(?:python[\d.]*|perl|ruby|node|nodejs|php|deno|bun|lua|osascript|pwsh|powershell)\b[^|;&\n]*?\s(?:-[A-Za-z]*[ceErp]|--eval|--print|-Command|eval)\b/;
const NETWORK =
  /\burlopen\b|\burllib\b|\brequests\.\w+\(|\bhttp\.client\b|\bhttpx\b|\bsocket\.|\bLWP\b|HTTP::Tiny|IO::Socket|Net::HTTP|open-uri|URI\.open|\bfetch\(|\bhttps?\.(?:get|request)\(|require\(\s*https?\s*\)|file_get_contents\(\s*(?:https?|ftp):|Invoke-WebRequest|\biwr\b|DownloadString|(?:https?|ftp):\/\/|\bcurl\b|\bwget\b/;
const CHECKS: [TrustFlag, RegExp][] = [
  [
    'pipe-to-shell',
    new RegExp(String.raw`${PIPE_PREFIX}(?:${SHELL}|${STDIN_INTERPRETER}|(?:source|\.)(?=\s|$))|(?:${SHELL}|${INTERPRETER})\s+(?:-\S+\s+)*<\(`),
  ],
  [
    'hidden-command',
    new RegExp(
      String.raw`${PIPE_PREFIX}(?:\$\{?[A-Za-z_]\w*\}?(?=\s|$|[;&|)])|\$\(|\x60)|(?:^|[;&|(]\s*)\$\{?[A-Za-z_]\w*\}?\s+[^;&|]*(?:https?|ftp):\/\/|(?:^|[;&|]\s*)(?:\$\(|\x60)\s*(?:printf|echo|rev|tr|xxd|base64|base32)\b`,
    ),
  ],
  [
    'base64-decode',
    /\bbase(?:64|32)\b[^|;&\n]*?\s(?:--decode\b|-[A-Za-z]*[dD][A-Za-z]*\b)|\bb64decode\b|\bFromBase64String\b|\batob\(|\bxxd\s+(?:-\w+\s+)*-r|\bopenssl\s+(?:enc\s+)?(?:-\w+\s+)*-(?:base64|a)\b[^|;&\n]*\s-d\b/,
  ],
  ['shell-c', new RegExp(String.raw`(?:^|[\s;&|(\x60'"])${SHELL}\s+(?:-[A-Za-z]*\s+)*-[A-Za-z]*c[A-Za-z]*\b`)],
  [
    'eval',
    /(?:^|[;&|(`]\s*|\$\(\s*|\b(?:sudo|then|do|else|exec)\s+)eval\b(?!\s*=)|\beval\s*\(|\b(?:iex|Invoke-Expression)\b|\bexec\s*\(\s*(?:compile\s*\()?\s*\w*\.?(?:urlopen|get|read|decode|b64decode)\b/,
  ],
  [
    'download-executable',
    /\b(?:https?|ftp):\/\/[^\s/'"<>)]+\/[^\s'"<>)]*?\.(?:sh|bash|py|pl|rb|ps1|exe|bin|appimage|run|msi|dmg|pkg|deb|rpm|bat|command)(?=$|[\s'"<>)?#])/i,
  ],
];
const NETWORK_SHELL = /\/dev\/(?:tcp|udp)\/|\b(?:nc|ncat|netcat)\b[^|;&\n]*\s-[A-Za-z]*[ec]\b|\bsocat\b[^|;&\n]*\bexec:/i;
const RUN_SCRIPT = new RegExp(String.raw`(?:^|[;&|(]\s*|\b(?:then|do)\s+)(?:sudo\s+(?:-\S+\s+)*)?${SHELL}\s+(?:-[A-Za-z]+\s+)*(?![-<])[^\s;&|]+`);
const SOURCE_STDIN = /(?:^|[;&|(]\s*|\b(?:then|do)\s+)(?:source|\.)\s+(?:<\(|\/dev\/(?:stdin|fd\/0)\b)/;
const SOURCE_ANY = /(?:^|[;&|(]\s*|\b(?:then|do|else)\s+)(?:source|\.)\s+[^\s;&|]+/;
const DOWNLOAD = /\b(?:curl|wget|Invoke-WebRequest|iwr|aria2c|fetch\s+-o)\b/;
const CHMOD_EXEC = /\bchmod\s+(?:-\w+\s+)*(?:[ugoa]*[+=][rwxXst]*[xX]|0?[0-7]*[1357][0-7]*)(?=\s|$)/;
const COMMAND_LIKE = /^[\w./~{}$-]+\s+\S/;
const LIST_ITEM = /^(?:[-*+]|\d+[.)])\s/;

/** Scans a Markdown body (whose first line is line `firstLine` of the file). */
export function scanBody(body: string, firstLine = 1): TrustScan {
  const state: ScanState = { downloaded: false, vars: new Map() };
  const commands: ScannedCommand[] = [];
  for (const piece of listCodePieces(body, firstLine)) {
    // In prose `eval` is mostly an English word; the other flags keep their meaning there.
    const flags = scanText(piece.text, state).filter((found) => piece.kind !== 'text' || found.flag !== 'eval');
    if (flags.length > 0 || isCommand(piece)) commands.push({ line: piece.line, text: piece.text, where: piece.kind, flags });
  }
  return { commands, flagged: commands.filter((command) => command.flags.length > 0) };
}

/** Scans a script (every line is code, whatever the language); only its flagged lines are listed. */
export function scanScript(text: string): TrustScan {
  const state: ScanState = { downloaded: false, vars: new Map() };
  const flagged: ScannedCommand[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let line = lines[i] ?? '';
    while (line.endsWith('\\') && i + 1 < lines.length) line = `${line.slice(0, -1)} ${(lines[++i] ?? '').trim()}`;
    const code = line.trim();
    if (code === '' || code.startsWith('#') || code.startsWith('//')) continue;
    const flags = scanText(code, state);
    if (flags.length > 0) flagged.push({ line: start + 1, text: code, where: 'script', flags });
  }
  return { commands: flagged, flagged };
}

/** The flags of one command, outside any file (for tests and one-off checks). */
export function flagsOf(text: string, downloaded = false): TrustFlag[] {
  return scanText(text, { downloaded, vars: new Map() }).map((found) => found.flag);
}

/** A flag in words with what earned it: `pipes text … into a shell: "| bash"`. */
export function describeFlag(found: FoundFlag): string {
  return `${TRUST_FLAG_WORDS[found.flag]}: "${found.found}"`;
}

function scanText(text: string, state: ScanState): FoundFlag[] {
  const read = readAsShell(text, state.vars);
  const downloaded = state.downloaded || DOWNLOAD.test(read);
  const flags = deedsOf(read, downloaded);
  if (DOWNLOAD.test(read)) state.downloaded = true;
  // Flagged only once read as the shell reads it: an escape, a quote, an ANSI-C string, $IFS or a
  // variable hid it from a reader of the text as written.
  const naive = new Set(deedsOf(text, downloaded).map((found) => found.flag));
  if (flags.some((found) => !naive.has(found.flag))) flags.push({ flag: 'obfuscated', found: `reads as: ${read}` });
  return flags;
}

/** What a command (as read) does that deserves a flag; `downloaded`: something was fetched before or in it. */
function deedsOf(read: string, downloaded: boolean): FoundFlag[] {
  const flags: FoundFlag[] = [];
  for (const [flag, pattern] of CHECKS) {
    const match = pattern.exec(read);
    if (match) flags.push({ flag, found: match[0].trim() });
  }
  const network = NETWORK.exec(read);
  const inline = INTERPRETER_INLINE.exec(read);
  if (inline && network) flags.push({ flag: 'inline-fetch', found: `${inline[0].trim()} … ${network[0]}` });
  const sourced = SOURCE_STDIN.exec(read) ?? (downloaded ? SOURCE_ANY.exec(read) : null);
  if (sourced) flags.push({ flag: 'source-download', found: sourced[0].replace(/^[;&|(\s]+/, '') });
  const chmod = downloaded ? CHMOD_EXEC.exec(read) : null;
  if (chmod) flags.push({ flag: 'chmod-after-download', found: chmod[0] });
  const run = downloaded && !flags.some((found) => found.flag === 'pipe-to-shell' || found.flag === 'shell-c') ? RUN_SCRIPT.exec(read) : null;
  if (run) flags.push({ flag: 'run-download', found: run[0].replace(/^[;&|(\s]+/, '') });
  const remote = NETWORK_SHELL.exec(read);
  if (remote) flags.push({ flag: 'network-shell', found: remote[0].trim() });
  return flags;
}

/** A shell block's lines (comments aside) and code-shaped indented or inline pieces are commands. */
function isCommand(piece: CodePiece): boolean {
  if (piece.kind === 'fence') return SHELL_LANGS.has(piece.lang) && !piece.text.startsWith('#');
  if (piece.kind === 'indented') return COMMAND_LIKE.test(piece.text) && !LIST_ITEM.test(piece.text);
  return piece.kind === 'inline' && COMMAND_LIKE.test(piece.text);
}
