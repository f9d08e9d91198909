// The shapes a SKILL.md becomes once read: its frontmatter keys, its OpenClaw metadata and its install entries.

/** The installers OpenClaw knows; an entry of any other kind is dropped. */
export const INSTALL_KINDS = ['brew', 'node', 'go', 'uv', 'download'] as const;
export type InstallKind = (typeof INSTALL_KINDS)[number];

/** One way to install what a skill needs, as written in `metadata.openclaw.install[]` (shown, never run by itself). */
export interface InstallSpec {
  kind: InstallKind;
  id?: string;
  label?: string;
  /** The programs it puts on PATH. */
  bins?: string[];
  /** Platforms it applies to; absent means all. */
  os?: string[];
  /** brew: the formula (tap-qualified names allowed). */
  formula?: string;
  /** brew: a cask, installed with `--cask`. */
  cask?: string;
  /** node (npm) or uv (PyPI): the package spec. */
  package?: string;
  /** go: the module path, with an optional `@version`. */
  module?: string;
  /** download: an http(s) URL. */
  url?: string;
  /** download: the expected SHA-256 of the file, 64 hex digits, lower case. */
  sha256?: string;
  archive?: string;
  extract?: boolean;
  stripComponents?: number;
  targetDir?: string;
}

/** What a skill needs before it is offered; each list empty when not asked for. */
export interface SkillRequires {
  /** Programs that must all be on PATH. */
  bins: string[];
  /** Programs of which at least one must be on PATH. */
  anyBins: string[];
  /** Environment variables that must be set (by the environment or the skill's own settings). */
  env: string[];
  /** Config paths that must be truthy. */
  config: string[];
}

/** `metadata.openclaw` (or the legacy `metadata.clawdbot`), normalised. */
export interface SkillMetadata {
  /** Which key of `metadata` it was read from. */
  key: 'openclaw' | 'clawdbot';
  /** Skip the `requires` checks (never the `os` one). */
  always?: boolean;
  emoji?: string;
  homepage?: string;
  /** The variable the skill's `api_key` setting stands for. */
  primaryEnv?: string;
  /** The settings key (`skills.<key>`); the skill's name when absent. */
  skillKey?: string;
  /** Platforms (`darwin`, `linux`, `win32`) the skill runs on; empty means all. */
  os: string[];
  requires: SkillRequires;
  install: InstallSpec[];
}

/** A SKILL.md read as OpenClaw reads it. */
export interface SkillFile {
  name: string;
  description: string;
  homepage?: string;
  /** A person may invoke it as `/name` (default true). */
  userInvocable: boolean;
  /** It is never offered to the model (default false). */
  disableModelInvocation: boolean;
  commandDispatch?: string;
  commandTool?: string;
  commandArgMode?: string;
  license?: string;
  allowedTools?: string;
  /** Every frontmatter key, each value a string (objects as JSON). */
  frontmatter: Record<string, string>;
  metadata?: SkillMetadata;
  /** The text after the frontmatter. */
  body: string;
  /** The 1-based line of the file where `body` starts. */
  bodyLine: number;
  /** What was read but not used (a metadata block that is not JSON, an install entry dropped, …), in words. */
  warnings: string[];
}

/** The answer of a parse: the skill, or the rejection in OpenClaw's words (`invalid frontmatter: CODE: msg`). */
export type SkillParseResult = { ok: true; skill: SkillFile } | { ok: false; code: string; message: string };
