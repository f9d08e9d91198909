import type { PluginManifest } from '../../protocol';
import { InstallError } from './errors';

/** What the running HomeAgent allows beyond a valid package. */
export interface PackagePolicy {
  /** Names of the built-in plugins, which no package may take. */
  builtinNames?: Iterable<string>;
  /** The running HomeAgent's version; a package whose `homeagent` asks for a later one is refused. */
  homeagentVersion?: string;
}

/** Refuses a package that takes a built-in's name, or needs a later HomeAgent than the one running. */
export function checkPolicy(manifest: PluginManifest, policy: PackagePolicy): void {
  refuseBuiltinName(manifest.name, policy.builtinNames);
  if (policy.homeagentVersion !== undefined) refuseNewerHomeagent(manifest, policy.homeagentVersion);
}

function refuseBuiltinName(name: string, builtinNames: Iterable<string> = []): void {
  if (![...builtinNames].includes(name)) return;
  throw new InstallError('INVALID_PACKAGE', 'package.builtin-name', `it is named "${name}", like a built-in plugin, which a package cannot replace`, {
    entry: 'plugin.json',
    stage: 'package',
    advice: 'rename the plugin in its plugin.json and rebuild it with scripts/hmap-pack',
  });
}

function refuseNewerHomeagent(manifest: PluginManifest, running: string): void {
  if (manifest.homeagent === undefined) return;
  const wanted = versionParts(manifest.homeagent);
  const have = versionParts(running);
  const problem =
    wanted === undefined
      ? `its plugin.json asks for HomeAgent "${manifest.homeagent}", which is not a version like 1.2.0`
      : have !== undefined && compareParts(wanted, have) > 0
        ? `it needs HomeAgent ${manifest.homeagent} or later, and this is ${running}`
        : undefined;
  if (problem === undefined) return;
  throw new InstallError('INVALID_PACKAGE', 'package.homeagent-version', problem, { entry: 'plugin.json', stage: 'package', advice: 'update HomeAgent, or install a version of the plugin made for this one' });
}

function versionParts(version: string): number[] | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version.trim().replace(/^>=?\s*/, ''));
  return match === null ? undefined : match.slice(1, 4).map(Number);
}

function compareParts(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}

