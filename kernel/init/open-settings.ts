import { AGENT_DEFS } from '../agent/config-defs';
import { ConfigRegistry, CORE_SCOPE, seedDefaults, type CorePaths } from '../config';
import { PACKAGE_DEFS } from '../packages';
import { createConfiguredDirs, type DataTree } from '../paths';
import { MEMORY_DEFS } from '../recall/memory-policy';

/** The settings homed runs on: the registry, and the folders its path keys name. */
export interface Settings {
  config: ConfigRegistry;
  paths: CorePaths;
}

/** Opens the configuration registry, seeds the path keys, creates the folders they name and defines every core setting. */
export function openSettings(tree: DataTree): Settings {
  const config = ConfigRegistry.open(tree.configDb);
  const paths = seedDefaults(config, tree.data);
  createConfiguredDirs(paths);
  config.define(CORE_SCOPE, AGENT_DEFS);
  config.define(CORE_SCOPE, PACKAGE_DEFS);
  config.define(CORE_SCOPE, MEMORY_DEFS);
  return { config, paths };
}
