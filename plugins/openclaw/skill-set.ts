// The skill set as last loaded: its sources, the catalog (gated), the settings and PATH it was gated with, and the
// folders the walk read (for the watch). Loading again re-reads only the SKILL.md files whose stamp changed.
import * as path from 'node:path';
import { loadCatalog, type Catalog, type CatalogEntry } from './skills/catalog';
import type { SkillSource, WalkedDir } from './skills/discovery';
import { SkillFileCache } from './skills/file-cache';
import { skillKeyOf, type GateContext } from './skills/gating';
import { commandPath } from './command-path';
import { settingsKeyOf, type OpenclawSettings } from './settings';
import { listSources } from './sources';

export interface SkillSetState {
  settings: OpenclawSettings;
  /** The PATH the skills were gated against (and their commands get). */
  pathValue: string;
  sources: SkillSource[];
  catalog: Catalog;
  walked: WalkedDir[];
}

/** What gating reads from this machine; a test gives its own. */
export interface MachineView {
  platform: string;
  /** homed's PATH, as plugin processes inherit it. */
  homedPath: string;
  env: Readonly<Record<string, string | undefined>>;
}

export function thisMachine(): MachineView {
  return { platform: process.platform, homedPath: process.env['PATH'] ?? '', env: process.env };
}

export class SkillSet {
  private state: SkillSetState | undefined;
  readonly cache = new SkillFileCache();

  constructor(
    /** Where `skills setup` downloads go (`<pluginData>/tools`). */
    readonly toolsRoot: string,
    readonly machine: MachineView = thisMachine(),
  ) {}

  /** Loads and gates every skill with `settings`; the state is kept for the readers below. */
  async load(settings: OpenclawSettings): Promise<SkillSetState> {
    const pathValue = commandPath(this.machine.homedPath, this.toolsRoot);
    const sources = await listSources(settings);
    const walked: WalkedDir[] = [];
    const catalog = await loadCatalog(sources, this.gateContext(settings, pathValue), { cache: this.cache, walked });
    this.state = { settings, pathValue, sources, catalog, walked };
    return this.state;
  }

  /** The state of the last load. */
  get current(): SkillSetState {
    if (!this.state) throw new Error('the skills are not loaded yet; try again in a moment');
    return this.state;
  }

  /** The skill in effect named `name`, if any. */
  find(name: string): CatalogEntry | undefined {
    return this.current.catalog.skills.find((entry) => entry.name === name);
  }

  /** What gating a skill looks at, for these settings and PATH. */
  gateContext(settings: OpenclawSettings, pathValue: string): GateContext {
    const allow = new Set(settings.allow);
    return {
      platform: this.machine.platform,
      pathValue,
      env: this.machine.env,
      settings: (skillKey) => settings.skills.get(settingsKeyOf(skillKey)),
      config: (dotted) => lookUp(settings.config, dotted),
      ...(allow.size > 0 ? { allowed: (skill, key) => allow.has(skill.name) || allow.has(key) || allow.has(settingsKeyOf(key)) } : {}),
    };
  }

  /** Where a download of the skill's install spec goes: `<toolsRoot>/<settings key>`. */
  toolsDirOf(entry: CatalogEntry): string {
    return path.join(this.toolsRoot, settingsKeyFor(entry));
  }
}

/** The settings key of a catalog entry (of its folder's name when it could not be parsed). */
export function settingsKeyFor(entry: CatalogEntry): string {
  return settingsKeyOf(entry.skill ? skillKeyOf(entry.skill) : entry.name);
}

/** A dotted path's value in a JSON object (`skills.entries.x.enabled`), or undefined. */
export function lookUp(root: Record<string, unknown>, dotted: string): unknown {
  let value: unknown = root;
  for (const part of dotted.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}
