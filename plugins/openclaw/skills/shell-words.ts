// A command as a shell would read it, before the trust scan matches it: `c\url`, `c''url`, `$'\x63url'`, `${IFS}`
// and `C=curl; $C` all spell `curl`. Matching the text as written would need one pattern per spelling; reading it
// the shell's way first needs one pattern per deed.

/** Variables a scan has seen assigned so far (in the same file), by name. */
export type ShellVars = Map<string, string>;

/** Variables that name the running shell itself: `curl … | $0` pipes into a shell. */
const SHELL_ITSELF = new Set(['0', 'SHELL', 'BASH']);
/** Characters that show as nothing: `cu\u200brl` reads as `curl` to a person and to the model that types it out. */
const INVISIBLE = /[\u00ad\u200b-\u200f\u2060-\u2064\ufeff]/g;
const ANSI_C = /\$'((?:[^'\\]|\\.)*)'/g;
const ASSIGNMENT = /(?:^|[\s;&|(])(?:(?:export|local|readonly|declare|typeset)\s+(?:-\w+\s+)*)?([A-Za-z_]\w*)=("[^"]*"|'[^']*'|[^\s;&|)]*)/g;
const REFERENCE = /\$\{([A-Za-z_]\w*|\d)\}|\$([A-Za-z_]\w*|\d)/g;

/** The text with escapes, ANSI-C strings, `$IFS`, known variables and quotes resolved; `vars` gains its assignments. */
export function readAsShell(text: string, vars: ShellVars): string {
  const unescaped = text
    .replace(INVISIBLE, '')
    .replace(ANSI_C, (_all, inner: string) => decodeAnsiC(inner))
    .replace(/\$\{IFS\}|\$IFS\b/g, ' ')
    .replace(/\\(.)/g, '$1');
  for (const match of unescaped.matchAll(ASSIGNMENT)) {
    const name = match[1] as string;
    vars.set(name, substitute(stripQuotes(match[2] ?? ''), vars));
  }
  return stripQuotes(substitute(unescaped, vars));
}

/** `$NAME` and `${NAME}` replaced by what was assigned; `$0`, `$SHELL` and `$BASH` by `sh`; others kept as written. */
function substitute(text: string, vars: ShellVars): string {
  return text.replace(REFERENCE, (whole, braced: string | undefined, bare: string | undefined) => {
    const name = braced ?? bare ?? '';
    if (SHELL_ITSELF.has(name)) return 'sh';
    return vars.get(name) ?? whole;
  });
}

/** Quotes only group words for the shell; without them `"b"ash` and `'curl'` read as the words they make. */
function stripQuotes(text: string): string {
  return text.replace(/["']/g, '');
}

function decodeAnsiC(inner: string): string {
  return inner.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|.)/g, (_all, code: string) => {
    if (/^[xuU]/.test(code)) return String.fromCodePoint(Number.parseInt(code.slice(1), 16));
    if (/^[0-7]/.test(code)) return String.fromCharCode(Number.parseInt(code, 8));
    const named: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v' };
    return named[code] ?? code;
  });
}
