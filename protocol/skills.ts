// Skills (OpenClaw SKILL.md): the openclaw plugin's client methods (skills/*), served to homectl and the web page,
// with their shapes. Names are skill names; `key` is a skill's settings key (`openclaw:skills.<key>.*`).
import { NO_PARAMS, objectSchema, request } from './descriptor';
import { BOOLEAN_FIELD, PATH_FIELD, stringField } from './fields';

/** A SKILL.md larger than this, in bytes, is refused unread (OpenClaw's skills are a few kB). */
export const MAX_SKILL_BYTES = 256 * 1024;
/** How long `skills/setup` lets an installer run (openclaw stops it then); its answer comes within a minute more. */
export const SKILLS_SETUP_TIMEOUT_MS = 10 * 60_000;

/** ready: offered; disabled: by the owner; blocked: not allowed for the agent; missing: a requirement lacks; error: unreadable. */
export type SkillStatusName = 'ready' | 'disabled' | 'blocked' | 'missing' | 'error';

/** The kinds of requirement, in the order they are checked. */
export type SkillRequirementKind = 'os' | 'bins' | 'anyBins' | 'env' | 'config';

/** What each kind of requirement still lacks. */
export type SkillMissing = Partial<Record<SkillRequirementKind, string[]>>;

/** A skill as lists show it. */
export interface SkillSummary {
  /** Its name (the folder's name when it could not be parsed). */
  name: string;
  /** Empty when it could not be parsed. */
  description: string;
  status: SkillStatusName;
  /** Where it was found: `data` (core.skills.path), `package:<name>` (an installed .hmap), `extra:<folder>`. */
  source: string;
  /** Its settings key (`openclaw:skills.<key>.enabled|env|api_key`). */
  key: string;
  emoji?: string;
  /** For `missing`: what lacks. */
  missing?: SkillMissing;
  /** For `error`: why it could not be read. */
  error?: string;
  /** A person may invoke it as `/name`. */
  userInvocable: boolean;
  /** It is offered to the model when ready (false for `disable-model-invocation`). */
  modelInvocable: boolean;
}

/** A skill hidden by a higher-precedence skill of the same name. */
export interface ShadowedSkill extends SkillSummary {
  /** The SKILL.md of the skill that wins. */
  shadowedBy: string;
  /** Its own SKILL.md. */
  path: string;
}

/** `skills/list` params. */
export interface SkillsListParams {
  /** Only the skills that are ready. */
  eligible?: boolean;
}
/** `skills/list` → every skill in effect, name order, and the shadowed ones. */
export interface SkillsListResult {
  skills: SkillSummary[];
  shadowed: ShadowedSkill[];
  /** How many are ready, of `total` (shadowed ones not counted). */
  ready: number;
  total: number;
}

/** One requirement and whether it holds. */
export interface SkillCheck {
  kind: SkillRequirementKind;
  name: string;
  ok: boolean;
}

/** One way to install what a skill needs, as written in its metadata (shown; run only by `skills/setup`). */
export interface SkillInstallOption {
  /** Its id (the spec's `id`, else `<kind>-<n>`), what `skills/setup` takes. */
  id: string;
  kind: 'brew' | 'node' | 'go' | 'uv' | 'download';
  /** One line: what it runs or fetches (`npm install -g foo`, `download https://… (sha256 …)`). */
  label: string;
  /** The programs it puts on PATH. */
  bins: string[];
  /** Whether it applies to this machine's platform. */
  applies: boolean;
  /** The spec as written (its known fields). */
  spec: Record<string, unknown>;
}

/** A shell command found in a skill's files, with what makes it dangerous (if anything). */
export interface SkillCommand {
  /** The file it is in, relative to the skill's folder (`SKILL.md`, `scripts/setup.sh`). */
  file: string;
  /** 1-based line in that file. */
  line: number;
  text: string;
  /** In a fenced or indented code block, an inline code span, plain text (only when flagged), or a script line (only when flagged). */
  where: 'fence' | 'indented' | 'inline' | 'text' | 'script';
  /** Each flag in words with what earned it (`pipes text … into a shell: "| bash"`); empty for an ordinary command. */
  flags: string[];
}

/** A file of a skill the trust scan did not read, and why (binary, too big, not a plain file). */
export type SkillUnscannedFile = {
  /** Relative to the skill's folder. */
  file: string;
  /** Why: binary, too big. */
  reason: string;
};

/** A skill's other files as the kernel read them from a package, for the trust scan. */
export type SkillPackageFiles = {
  /** Its text files (SKILL.md, plugin.json and skill.json aside), each as UTF-8 text. */
  files?: { name: string; text: string }[];
  /** The files it did not read as text. */
  unscanned?: SkillUnscannedFile[];
};

/** Where a previewed skill comes from, for the report's facts. */
export type SkillOrigin = {
  /** The folder, the .hmap file, the URL given, or `upload`. */
  source: string;
  /** For a package: its file's SHA-256 and size. */
  package?: { sha256: string; bytes: number };
};

/** `skills/info` params. */
export interface SkillsInfoParams {
  name: string;
}
/** `skills/info` → everything about one skill. */
export interface SkillInfo extends SkillSummary {
  /** Its SKILL.md. */
  path: string;
  homepage?: string;
  primaryEnv?: string;
  /** Every requirement with whether it holds. */
  checks: SkillCheck[];
  /** Install options (all of them; a person sees them when it is not ready). */
  install: SkillInstallOption[];
  /** Its settings, without values: enabled, the names of the variables `env` sets, whether an api key is set. */
  settings: { enabled: boolean; env: string[]; apiKey: boolean };
  /** What was read but not used (a dropped install entry, metadata that is not JSON). */
  warnings: string[];
  /** Skills of the same name it hides. */
  shadows: string[];
}

/** `skills/check` → totals by status and what each missing skill lacks. */
export interface SkillsCheckResult {
  totals: Record<SkillStatusName, number>;
  missing: { name: string; missing: SkillMissing }[];
  errors: { name: string; path: string; error: string }[];
}

/** `skills/enable` and `skills/disable` params. */
export interface SkillsToggleParams {
  name: string;
}
/** `skills/enable` and `skills/disable` → the skill's status after the change. */
export interface SkillsToggleResult {
  name: string;
  key: string;
  status: SkillStatusName;
}

/**
 * `skills/preview` params: a skill folder on this machine (absolute), or the SKILL.md text of a package the kernel
 * inspected (`plugins/install` with `inspectOnly` answers it as `skill.text`) with the name of its folder.
 */
export type SkillsPreviewParams = ({ dir: string } | ({ text: string; folder: string } & SkillPackageFiles)) & { origin?: SkillOrigin };

/** What a person sees before a skill is installed. */
export interface SkillPreview {
  name: string;
  description: string;
  homepage?: string;
  /** Its requirements as written, and whether each holds here. */
  checks: SkillCheck[];
  /** Every install spec (shown, never run by the install). */
  install: SkillInstallOption[];
  /** Every shell command found in SKILL.md, and every flagged line of its other files. */
  commands: SkillCommand[];
  /** How many of them are flagged, with the files that could not be scanned. */
  flagged: number;
  /** The files the scan read (SKILL.md first). */
  scanned: string[];
  /** The files it could not read, each a reason to look before installing. */
  unscanned: SkillUnscannedFile[];
  /** The whole trust report in words, as every install path shows it before it installs. */
  report: string;
  warnings: string[];
  /** SHA-256 of the SKILL.md shown; `skills/install` of a folder refuses a SKILL.md that changed since. */
  sha256: string;
  /** For a folder: its files and bytes, as they would be copied. */
  files?: number;
  bytes?: number;
  /** A skill of that name exists already: where, and whether this would replace it (same source) or be shadowed. */
  existing?: { source: string; path: string; outcome: 'replaced' | 'shadowed' | 'shadows' };
}

/** `skills/install` params: copies a previewed folder into core.skills.path (packages go through plugins/install). */
export interface SkillsInstallParams {
  dir: string;
  /** The preview's sha256: what the person saw. */
  sha256: string;
}
/** `skills/install` → where it went and its status there. */
export interface SkillsInstallResult {
  name: string;
  path: string;
  status: SkillStatusName;
  /** It replaced a skill of that name in core.skills.path. */
  replaced: boolean;
}

/** `skills/remove` params. */
export interface SkillsRemoveParams {
  name: string;
}
/**
 * `skills/remove` → removed from core.skills.path, or the package to remove with plugins/remove (the caller does),
 * or refused for a skill of an extra folder (with the error saying so).
 */
export type SkillsRemoveResult = { removed: true; path: string } | { removed: false; package: string };

/** `skills/setup` params: runs one install option of a skill, after the person confirmed it a second time. */
export interface SkillsSetupParams {
  name: string;
  /** The option's id, as `skills/info` lists it. */
  id: string;
}
/** `skills/setup` → what ran, how it ended, and the skill's status after. */
export interface SkillsSetupResult {
  command: string;
  exitCode: number;
  /** The tail of its output. */
  output: string;
  status: SkillStatusName;
}

/** A skill's name. */
const SKILL_NAME_FIELD = stringField(200);
const BY_NAME = objectSchema({ name: SKILL_NAME_FIELD }, ['name']);
/** A SHA-256 in hex, either case. */
const ANY_CASE_SHA256_FIELD = { type: 'string', pattern: '^[0-9a-fA-F]{64}$' };
const ORIGIN_FIELD = objectSchema(
  { source: PATH_FIELD, package: objectSchema({ sha256: ANY_CASE_SHA256_FIELD, bytes: { type: 'integer', minimum: 0 } }, ['sha256', 'bytes']) },
  ['source'],
);
/** A file's name inside a skill's folder. */
const FILE_NAME_FIELD = PATH_FIELD;
/** The most files of a package a preview takes. */
const MAX_PREVIEW_FILES = 10_000;

/** The openclaw plugin's client methods. Setting one up runs an installer outside every sandbox, so only the owner may. */
export const SkillsApi = {
  /** Every skill in effect, and the shadowed ones. */
  List: request<SkillsListParams, SkillsListResult>('skills/list', { params: objectSchema({ eligible: BOOLEAN_FIELD }), permission: null }),
  /** Everything about one skill. */
  Info: request<SkillsInfoParams, SkillInfo>('skills/info', { params: BY_NAME, permission: null }),
  /** Totals by status, and what the missing ones lack. */
  Check: request<Record<string, never>, SkillsCheckResult>('skills/check', { params: NO_PARAMS, permission: null }),
  /** Turns a skill on (its `enabled` setting). */
  Enable: request<SkillsToggleParams, SkillsToggleResult>('skills/enable', { params: BY_NAME, permission: null }),
  /** Turns a skill off. */
  Disable: request<SkillsToggleParams, SkillsToggleResult>('skills/disable', { params: BY_NAME, permission: null }),
  /** What a person sees before a skill is installed. */
  Preview: request<SkillsPreviewParams, SkillPreview>('skills/preview', {
    params: {
      anyOf: [
        objectSchema({ dir: PATH_FIELD, origin: ORIGIN_FIELD }, ['dir']),
        objectSchema(
          {
            text: { type: 'string', maxLength: MAX_SKILL_BYTES },
            folder: SKILL_NAME_FIELD,
            files: { type: 'array', maxItems: MAX_PREVIEW_FILES, items: objectSchema({ name: FILE_NAME_FIELD, text: { type: 'string' } }, ['name', 'text']) },
            unscanned: {
              type: 'array',
              maxItems: MAX_PREVIEW_FILES,
              items: objectSchema({ file: FILE_NAME_FIELD, reason: { type: 'string', maxLength: 1000 } }, ['file', 'reason']),
            },
            origin: ORIGIN_FIELD,
          },
          ['text', 'folder'],
        ),
      ],
    },
    permission: null,
  }),
  /** Copies a previewed folder into core.skills.path; a folder of up to the install cap on a slow disk takes a while. */
  Install: request<SkillsInstallParams, SkillsInstallResult>('skills/install', {
    params: objectSchema({ dir: PATH_FIELD, sha256: ANY_CASE_SHA256_FIELD }, ['dir', 'sha256']),
    permission: null,
    timeoutMs: 120_000,
  }),
  /** Removes a skill from core.skills.path. */
  Remove: request<SkillsRemoveParams, SkillsRemoveResult>('skills/remove', { params: BY_NAME, permission: null }),
  /** Runs one install option of a skill: an installer as homed's user, outside every sandbox, so the owner's own client only. */
  Setup: request<SkillsSetupParams, SkillsSetupResult>('skills/setup', {
    params: objectSchema({ name: SKILL_NAME_FIELD, id: stringField(200) }, ['name', 'id']),
    permission: null,
    owner: true,
    timeoutMs: SKILLS_SETUP_TIMEOUT_MS + 60_000,
  }),
} as const;
