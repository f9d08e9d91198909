import { ErrorCodes, haError } from '../../protocol';

/** Every way a package can be refused; the vocabulary of ../shared/corpus/zips/SOURCE.md. */
export const INSTALL_ERROR_KINDS = [
  'NOT_ZIP',
  'CORRUPT',
  'UNSAFE_PATH',
  'DUPLICATE_PATH',
  'UNSUPPORTED_ENTRY',
  'ENCRYPTED',
  'UNSUPPORTED_COMPRESSION',
  'LIMIT_EXCEEDED',
  'OVERLAP',
  'AMBIGUOUS',
  'INVALID_PACKAGE',
] as const;
export type InstallErrorKind = (typeof INSTALL_ERROR_KINDS)[number];

/** When the refusal came: before a byte was written, while reading the data, or when checking the unpacked plugin. */
export type InstallStage = 'preflight' | 'data' | 'package';

const REBUILD = 'ask its author to rebuild it with scripts/hmap-pack, which writes only plain files with safe names';

// What a person can do about each kind; a limit names its own setting instead.
const ADVICE: Record<InstallErrorKind, string> = {
  NOT_ZIP: `a .hmap package is a single ZIP file; ${REBUILD}`,
  CORRUPT: 'the archive is damaged or was altered; download it again or ask its author for a new copy',
  UNSAFE_PATH: REBUILD,
  DUPLICATE_PATH: REBUILD,
  UNSUPPORTED_ENTRY: REBUILD,
  ENCRYPTED: `encrypted packages cannot be checked; ${REBUILD}`,
  UNSUPPORTED_COMPRESSION: `only stored and deflated entries are accepted; ${REBUILD}`,
  LIMIT_EXCEEDED: 'if you trust this package, raise the limit with homectl config set',
  OVERLAP: 'entries that share bytes are the mark of a zip bomb; do not install it',
  AMBIGUOUS: `other unzip tools would read this archive differently; ${REBUILD}`,
  INVALID_PACKAGE: 'fix plugin.json and the files it names, then rebuild it with scripts/hmap-pack',
};

export interface InstallErrorInit {
  /** The entry's name as stored, unescaped; omitted when the archive as a whole is at fault. */
  entry?: string;
  /** What to do, when the kind's general advice is not the best one. */
  advice?: string;
  stage?: InstallStage;
}

/** A refused package: which kind of problem, which rule caught it, in which entry, and what to do. */
export class InstallError extends Error {
  override readonly name = 'InstallError';
  readonly kind: InstallErrorKind;
  /** The check that fired, like `path.traversal` or `limit.ratio`. */
  readonly rule: string;
  /** The entry's name, printable-escaped; undefined when the archive as a whole is at fault. */
  readonly entry: string | undefined;
  readonly stage: InstallStage;
  /** What was wrong, on its own (the message adds where and what to do). */
  readonly problem: string;
  /** What to do about it. */
  readonly advice: string;
  /** The archive's file name, once known. */
  archive: string | undefined;

  constructor(kind: InstallErrorKind, rule: string, problem: string, init: InstallErrorInit = {}) {
    super(problem);
    this.kind = kind;
    this.rule = rule;
    this.entry = init.entry === undefined ? undefined : printable(init.entry);
    this.stage = init.stage ?? 'preflight';
    this.problem = problem;
    this.advice = init.advice ?? ADVICE[kind];
    this.message = this.compose();
  }

  /** Names the archive in the message. */
  inArchive(file: string): this {
    this.archive = file;
    this.message = this.compose();
    return this;
  }

  /** The wire error an SDK handler answers with. */
  toResponseError(): ReturnType<typeof haError> {
    const facts = { kind: this.kind, rule: this.rule, stage: this.stage, ...(this.entry === undefined ? {} : { entry: this.entry }) };
    return haError(ErrorCodes.InvalidValue, this.message, this.archive === undefined ? facts : { ...facts, archive: this.archive });
  }

  private compose(): string {
    const where = this.archive === undefined ? 'the package' : this.archive;
    const what = this.entry === undefined ? `${where} is refused` : `entry "${this.entry}" of ${where} is refused`;
    return `${what}: ${this.problem} (${this.kind}, rule ${this.rule}); ${this.advice}`;
  }
}

const MAX_SHOWN = 160;

/** A name as it can be shown: control, invisible and direction characters escaped, long names shortened. */
export function printable(name: string): string {
  let out = '';
  for (const ch of name) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\') out += '\\\\';
    else if (ch === '"') out += '\\"';
    else if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (/[\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\uFFFD]/u.test(ch)) out += `\\u{${code.toString(16)}}`;
    else out += ch;
    if (out.length > MAX_SHOWN) return `${out.slice(0, MAX_SHOWN)}…`;
  }
  return out;
}
