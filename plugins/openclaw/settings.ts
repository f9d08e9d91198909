// The openclaw plugin's settings, read whole at each refresh: its own table (per-skill switches, variables and api
// keys, extra folders, the allow-list, the config `requires.config` looks in, the prompt budget) and the two core
// folders it reads (core.skills.path, core.plugin.dir; `config.others`), each falling back to its place in the data dir.
import * as path from 'node:path';
import type { PluginContext } from '../../plugin-host';
import { ErrorCodes } from '../../protocol/errors';
import type { SkillSettings } from './skills/gating';

/** The prompt budget when none is set: see plugin.json's `prompt_budget`. */
export const DEFAULT_PROMPT_BUDGET = 1500;
const SKILL_KEY = /^skills\.([a-z0-9_-]+)\.(enabled|env|api_key)$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface OpenclawSettings {
  /** core.skills.path (absolute). */
  skillsPath: string;
  /** core.plugin.dir (absolute): where skill packages are installed. */
  pluginDir: string;
  /** `extra_dirs`, absolute, in order. */
  extraDirs: string[];
  /** `allow`: names or keys the agent may use; empty allows every skill. */
  allow: string[];
  /** `config`: the object `requires.config` paths are looked up in. */
  config: Record<string, unknown>;
  promptBudget: number;
  /** Per-skill settings by settings key. */
  skills: Map<string, SkillSettings>;
  /** Values that could not be used, in words (logged once per refresh that finds them). */
  problems: string[];
}

/** A skill key as a settings segment: lower case, anything but letters, digits, `_` and `-` made `-`. */
export function settingsKeyOf(skillKey: string): string {
  const key = skillKey
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .slice(0, 100);
  return key === '' ? 'skill' : key;
}

/** Reads every setting the plugin follows. */
export async function readSettings(ctx: PluginContext): Promise<OpenclawSettings> {
  const problems: string[] = [];
  const own = new Map((await ctx.config.list()).map((entry) => [entry.key, entry]));
  const value = (key: string): unknown => own.get(key)?.value;
  const skills = new Map<string, SkillSettings>();
  for (const [key, entry] of own) {
    const match = SKILL_KEY.exec(key);
    if (!match || !entry.isSet) continue;
    const [, skill = '', field] = match;
    const settings = skills.get(skill) ?? {};
    skills.set(skill, settings);
    if (field === 'enabled') settings.enabled = entry.value !== false;
    else if (field === 'env') {
      const env = readEnv(entry.value, `openclaw:${key}`, problems);
      if (env) settings.env = env;
    } else {
      // Passwords come masked in a list; the plugin's own get answers them in clear.
      const apiKey = await ctx.config.get(key);
      if (typeof apiKey === 'string' && apiKey !== '') settings.apiKey = apiKey;
    }
  }
  return {
    skillsPath: await readCorePath(ctx, 'core.skills.path', path.join(ctx.paths.data, 'skills')),
    pluginDir: await readCorePath(ctx, 'core.plugin.dir', path.join(ctx.paths.data, 'plugins')),
    extraDirs: readDirs(value('extra_dirs'), ctx.paths.data, problems),
    allow: readNames(value('allow'), problems),
    config: readConfig(value('config'), problems),
    promptBudget: typeof value('prompt_budget') === 'number' ? (value('prompt_budget') as number) : DEFAULT_PROMPT_BUDGET,
    skills,
    problems,
  };
}

/** A core path setting, or its place in the data dir when the kernel does not know it (an older homed). */
async function readCorePath(ctx: PluginContext, key: string, fallback: string): Promise<string> {
  try {
    const value = await ctx.config.get(key, 'core');
    return typeof value === 'string' && value !== '' ? path.resolve(ctx.paths.data, value) : fallback;
  } catch (error) {
    if ((error as { code?: unknown }).code === ErrorCodes.NotFound) return fallback;
    throw error;
  }
}

function readEnv(value: unknown, label: string, problems: string[]): Record<string, string> | undefined {
  if (!isObject(value)) {
    problems.push(`${label} is not a JSON object of NAME: "value"; it is ignored`);
    return undefined;
  }
  const env: Record<string, string> = {};
  for (const [name, text] of Object.entries(value)) {
    if (!ENV_NAME.test(name)) problems.push(`${label}: ${JSON.stringify(name)} is not a variable name; it is left out`);
    else if (typeof text !== 'string' || text.includes('\0')) problems.push(`${label}: the value of ${name} is not a string; it is left out`);
    else env[name] = text;
  }
  return env;
}

function readDirs(value: unknown, dataDir: string, problems: string[]): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push('openclaw:extra_dirs is not a JSON list of folders; it is ignored');
    return [];
  }
  const dirs: string[] = [];
  for (const item of value) {
    if (typeof item !== 'string' || item.trim() === '') problems.push(`openclaw:extra_dirs: ${JSON.stringify(item)} is not a folder; it is left out`);
    else dirs.push(path.resolve(dataDir, expandHome(item.trim())));
  }
  return [...new Set(dirs)];
}

function readConfig(value: unknown, problems: string[]): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (isObject(value)) return value;
  problems.push('openclaw:config is not a JSON object; it is ignored (every requires.config path counts as unset)');
  return {};
}

function readNames(value: unknown, problems: string[]): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    problems.push('openclaw:allow is not a JSON list of skill names; it is ignored (every skill is allowed)');
    return [];
  }
  return value.map((item: string) => item.trim()).filter((item) => item !== '');
}

function expandHome(dir: string): string {
  const home = process.env['HOME'];
  return home && (dir === '~' || dir.startsWith('~/')) ? path.join(home, dir.slice(1)) : dir;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
