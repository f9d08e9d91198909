// .hmap packages: the hardened, all-or-nothing installer of third-party plugins (docs/ARCHITECTURE.md §15).
export { INSTALL_ERROR_KINDS, InstallError, printable, type InstallErrorKind, type InstallStage } from './errors';
export { DEFAULT_INSTALL_LIMITS, LIMIT_KEYS, loadInstallLimits, type InstallLimits } from './limits';
export { PACKAGE_DEFS } from './config-defs';
export { installPackage, type InstallOptions, type InstallResult } from './install';
export { inspectPackage, type InspectResult } from './inspect';
export { removePackage } from './remove';
export { sweepStaging } from './staging';
export { checkPackage, isPluginName, kindOf, type CheckedPackage, type PackageFiles, type PackageKind } from './package-check';
export { MAX_SKILL_BYTES } from './skill-text';
export type { PackagePolicy } from './package-policy';
export { nameProblem, pathDepth, type NameProblem } from './names';
