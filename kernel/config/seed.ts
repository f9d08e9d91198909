import * as path from 'node:path';
import { CORE_DEFS, RETIRED_CORE_KEYS } from './core-defs';
import { CORE_SCOPE } from './scope';
import type { ConfigRegistry } from './registry';

/** Where the kernel keeps its data, as configured. */
export interface CorePaths {
  pluginDir: string;
  memoryGraph: string;
  memoryText: string;
  memoryDocuments: string;
  knowledge: string;
  logs: string;
  /** Skills (SKILL.md folders) the openclaw plugin reads. */
  skills: string;
}

const PATH_KEYS: Record<keyof CorePaths, { key: string; under: string }> = {
  pluginDir: { key: 'core.plugin.dir', under: 'plugins' },
  memoryGraph: { key: 'core.memory.graph', under: 'memory/graph.db' },
  memoryText: { key: 'core.memory.text', under: 'memory/text' },
  memoryDocuments: { key: 'core.memory.documents', under: 'memory/documents' },
  knowledge: { key: 'core.knowledge.path', under: 'knowledge' },
  logs: { key: 'core.log.path', under: 'logs' },
  skills: { key: 'core.skills.path', under: 'skills' },
};

const DATA_DIR_KEY = 'core.data.dir';

/** A path inside the data dir it was seeded under moves with the data dir; a path a person put elsewhere stays. */
function rebase(stored: string, previousRoot: unknown, root: string): string {
  if (typeof previousRoot !== 'string' || previousRoot === root) return stored;
  const relative = path.relative(previousRoot, stored);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return stored;
  return path.join(root, relative);
}

/**
 * Defines the core settings, removes the retired ones, and stores each path under `dataDir` unless one is
 * already stored; records `dataDir` as core.data.dir (read-only to all but homed); returns the paths in effect.
 */
export function seedDefaults(registry: ConfigRegistry, dataDir: string): CorePaths {
  const root = path.resolve(dataDir);
  registry.define(CORE_SCOPE, CORE_DEFS);
  registry.forget(CORE_SCOPE, RETIRED_CORE_KEYS);
  const previousRoot = registry.getValue(CORE_SCOPE, DATA_DIR_KEY);
  const paths = {} as CorePaths;
  for (const [name, { key, under }] of Object.entries(PATH_KEYS) as [keyof CorePaths, { key: string; under: string }][]) {
    const stored = registry.get(CORE_SCOPE, key).isSet ? (registry.getValue(CORE_SCOPE, key) as string) : undefined;
    const wanted = stored === undefined ? path.join(root, ...under.split('/')) : rebase(stored, previousRoot, root);
    if (wanted !== stored) registry.set(CORE_SCOPE, key, wanted);
    paths[name] = wanted;
  }
  if (previousRoot !== root) registry.set(CORE_SCOPE, DATA_DIR_KEY, root);
  return paths;
}
