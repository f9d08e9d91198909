// Whether a skill can be offered: the owner's switch, the agent's allow-list, `os`, then `requires`, checked
// against a PATH, an environment and a config given by the caller (so tests control all three).
import { findExecutable } from '../../../protocol/runtime/executables';
import type { SkillFile } from './types';

/** A skill's own settings (`skills.<key>.*`). */
export interface SkillSettings {
  enabled?: boolean;
  /** Variables given to the commands of a turn that read the skill. */
  env?: Record<string, string>;
  /** Stands for the metadata's `primaryEnv`. */
  apiKey?: string;
}

/** What gating looks at; every part injectable. */
export interface GateContext {
  /** `process.platform` or a stand-in. */
  platform: string;
  /** A PATH value (folders joined by `path.delimiter`). */
  pathValue: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The settings of a skill by its key, if any. */
  settings: (skillKey: string) => SkillSettings | undefined;
  /** A config value by dotted path (`requires.config`), or undefined. */
  config: (dottedPath: string) => unknown;
  /** Whether the agent may use a skill at all; absent means every skill is allowed. */
  allowed?: (skill: SkillFile, skillKey: string) => boolean;
  /** Answers of `onPath`, shared between skills of one gating pass. */
  binCache?: Map<string, boolean>;
}

/** One requirement and whether it holds, for `skills info`. */
export interface RequirementCheck {
  kind: 'os' | 'bins' | 'anyBins' | 'env' | 'config';
  name: string;
  ok: boolean;
}

/** What each kind of requirement still lacks. */
export type Missing = Partial<Record<RequirementCheck['kind'], string[]>>;

export type SkillStatus =
  | { status: 'ready'; checks: RequirementCheck[] }
  | { status: 'disabled'; checks: RequirementCheck[] }
  | { status: 'blocked'; checks: RequirementCheck[] }
  | { status: 'missing'; missing: Missing; checks: RequirementCheck[] }
  | { status: 'error'; message: string };

/** The settings key of a skill: its metadata's `skillKey`, else its name. */
export function skillKeyOf(skill: SkillFile): string {
  return skill.metadata?.skillKey ?? skill.name;
}

/** Gates one parsed skill. `os` applies even to `always` skills; `always` skips `requires`. */
export function gateSkill(skill: SkillFile, context: GateContext): SkillStatus {
  const key = skillKeyOf(skill);
  const settings = context.settings(key);
  const checks = listChecks(skill, settings, context);
  if (settings?.enabled === false) return { status: 'disabled', checks };
  if (context.allowed && !context.allowed(skill, key)) return { status: 'blocked', checks };
  const failing = checks.filter((check) => !check.ok && (check.kind === 'os' || skill.metadata?.always !== true));
  if (failing.length === 0) return { status: 'ready', checks };
  const missing: Missing = {};
  for (const check of failing) (missing[check.kind] ??= []).push(check.name);
  return { status: 'missing', missing, checks };
}

function listChecks(skill: SkillFile, settings: SkillSettings | undefined, context: GateContext): RequirementCheck[] {
  const metadata = skill.metadata;
  if (!metadata) return [];
  const checks: RequirementCheck[] = [];
  if (metadata.os.length > 0) checks.push({ kind: 'os', name: metadata.os.join('|'), ok: metadata.os.includes(context.platform) });
  const { bins, anyBins, env, config } = metadata.requires;
  for (const bin of bins) checks.push({ kind: 'bins', name: bin, ok: onPath(bin, context) });
  if (anyBins.length > 0) checks.push({ kind: 'anyBins', name: anyBins.join('|'), ok: anyBins.some((bin) => onPath(bin, context)) });
  for (const name of env) checks.push({ kind: 'env', name, ok: envSet(name, skill, settings, context) });
  for (const dotted of config) checks.push({ kind: 'config', name: dotted, ok: isTruthy(context.config(dotted)) });
  return checks;
}

function envSet(name: string, skill: SkillFile, settings: SkillSettings | undefined, context: GateContext): boolean {
  if (context.env[name]) return true;
  if (settings?.env?.[name]) return true;
  return Boolean(settings?.apiKey) && skill.metadata?.primaryEnv === name;
}

/** Whether an executable file `bin` is in a folder of the context's PATH. */
export function onPath(bin: string, context: GateContext): boolean {
  const cache = context.binCache;
  const known = cache?.get(bin);
  if (known !== undefined) return known;
  const found = findExecutable(bin, context.pathValue) !== null;
  cache?.set(bin, found);
  return found;
}

/** OpenClaw's truthiness of a config value: false, 0, blank strings and absence are not. */
export function isTruthy(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return value.trim().length > 0;
  return true;
}

/** The status in words: `ready`, `missing (bins: gh; env: GH_TOKEN)`, `error: invalid frontmatter: …`. */
export function describeStatus(status: SkillStatus): string {
  if (status.status === 'error') return `error: ${status.message}`;
  if (status.status !== 'missing') return status.status;
  const parts = Object.entries(status.missing).map(([kind, names]) => `${kind}: ${names.join(', ')}`);
  return `missing (${parts.join('; ')})`;
}
