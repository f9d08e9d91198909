// The kernel's settings: one SQLite file, core and per-plugin tables, ConfigDef metadata.
export { ConfigRegistry, type ConfigChange, type ConfigListener, type ConfigWriter } from './registry';
export { ConfigError } from './errors';
export { CORE_SCOPE } from './scope';
export { isSecret, maskEntry, MASK } from './mask';
export { CORE_DEFS, CORE_PATH_DEFS } from './core-defs';
export { seedDefaults, type CorePaths } from './seed';
export { isPatternKey, matchesPattern } from './patterns';
export { fitForListing, MAX_LISTED_BYTES, MAX_LISTED_VALUE_BYTES, MAX_VALUE_BYTES } from './size';
