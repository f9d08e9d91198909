// The trust scan of a skill's body: every shell command found, and the ones that do what the 2026 ClawHub malware
// did (pipe a download into a shell, decode base64, run a string as code, fetch an executable), with line numbers.
import { listCodePieces, type CodePiece, type PieceKind } from './code-pieces';

export type TrustFlag = 'pipe-to-shell' | 'base64-decode' | 'shell-c' | 'eval' | 'download-executable' | 'chmod-after-download';

/** Each flag in words, for what `skills install` shows. */
export const TRUST_FLAG_WORDS: Record<TrustFlag, string> = {
  'pipe-to-shell': 'pipes text (often a download) straight into a shell',
  'base64-decode': 'decodes base64, the usual way to hide a payload',
  'shell-c': 'runs a string as a shell script (sh -c / bash -c)',
  eval: 'evaluates a string as code',
  'download-executable': 'downloads an executable or script file',
  'chmod-after-download': 'makes a file executable after downloading it',
};

export interface ScannedCommand {
  /** 1-based line in the SKILL.md. */
  line: number;
  text: string;
  /** A fenced block line, an inline code span, or plain text (listed only when flagged). */
  where: PieceKind;
  flags: TrustFlag[];
}

export interface TrustScan {
  /** Every command found, in file order. */
  commands: ScannedCommand[];
  /** The commands with at least one flag. */
  flagged: ScannedCommand[];
}

const SHELL_LANGS = new Set(['', 'bash', 'sh', 'shell', 'zsh', 'fish', 'ksh', 'console', 'terminal', 'shell-session', 'shellsession', 'sh-session', 'powershell', 'pwsh', 'ps1', 'cmd', 'bat']);
const SHELL = String.raw`(?:\/[\w./-]*\/)?(?:ba|z|da|k|fi)?sh\b`;
const CHECKS: [TrustFlag, RegExp][] = [
  ['pipe-to-shell', new RegExp(String.raw`\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+(?:\S+=\S*\s+)*)?${SHELL}|${SHELL}\s+<\(`)],
  ['base64-decode', /\bbase64\b[^|;&\n]*?\s(?:--decode\b|-[A-Za-z]*[dD][A-Za-z]*\b)|\bb64decode\b|\bFromBase64String\b/],
  ['shell-c', new RegExp(String.raw`(?:^|[\s;&|(\x60'"])${SHELL}\s+(?:-[A-Za-z]*\s+)*-[A-Za-z]*c[A-Za-z]*\b`)],
  ['eval', /(?:^|[;&|(`]\s*|\$\(\s*|\b(?:sudo|then|do|else|exec)\s+)eval\b(?!\s*=)|\beval\s*\(/],
  ['download-executable', /\b(?:https?|ftp):\/\/[^\s/'"<>)]+\/[^\s'"<>)]*?\.(?:sh|exe|bin|appimage|run|msi|dmg|pkg|deb|rpm|bat|ps1|command)(?=$|[\s'"<>)?#])/i],
];
const DOWNLOAD = /\b(?:curl|wget|Invoke-WebRequest|iwr)\b/;
const CHMOD_EXEC = /\bchmod\s+(?:-\w+\s+)*(?:[ugoa]*[+=][rwxXst]*[xX]|0?[0-7]*[1357][0-7]*)(?=\s|$)/;
const COMMAND_LIKE = /^[\w./~-]+\s+\S/;

/** Scans a body (whose first line is line `firstLine` of the file). */
export function scanBody(body: string, firstLine = 1): TrustScan {
  const commands: ScannedCommand[] = [];
  let downloaded = false;
  for (const piece of listCodePieces(body, firstLine)) {
    // In prose `eval` is mostly an English word; the other flags keep their meaning there.
    const flags = flagsOf(piece.text, downloaded).filter((flag) => piece.kind !== 'text' || flag !== 'eval');
    if (DOWNLOAD.test(piece.text)) downloaded = true;
    if (flags.length > 0 || isCommand(piece)) commands.push({ line: piece.line, text: piece.text, where: piece.kind, flags });
  }
  return { commands, flagged: commands.filter((command) => command.flags.length > 0) };
}

/** The flags of one command; `downloaded` says whether an earlier command fetched something. */
export function flagsOf(text: string, downloaded = false): TrustFlag[] {
  const flags = CHECKS.filter(([, pattern]) => pattern.test(text)).map(([flag]) => flag);
  if ((downloaded || DOWNLOAD.test(text)) && CHMOD_EXEC.test(text)) flags.push('chmod-after-download');
  return flags;
}

/** A shell block's lines (comments aside) and inline spans shaped like `program argument` are commands. */
function isCommand(piece: CodePiece): boolean {
  if (piece.kind === 'fence') return SHELL_LANGS.has(piece.lang) && !piece.text.startsWith('#');
  return piece.kind === 'inline' && COMMAND_LIKE.test(piece.text);
}
