import * as semver from 'semver';
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
  const wanted = lowestHomeagent(manifest.homeagent);
  const have = semver.parse(running.trim());
  const problem =
    wanted === null
      ? `its plugin.json asks for HomeAgent "${manifest.homeagent}", which is not a version like 1.2.0`
      : have !== null && semver.gt(wanted, have)
        ? `it needs HomeAgent ${manifest.homeagent} or later, and this is ${running}`
        : undefined;
  if (problem === undefined) return;
  throw new InstallError('INVALID_PACKAGE', 'package.homeagent-version', problem, {
    entry: 'plugin.json',
    stage: 'package',
    advice: 'update HomeAgent, or install a version of the plugin made for this one',
  });
}

// `homeagent` names the lowest version a package runs on: `1.2.0` (a pre-release like `1.2.0-beta.1` sorts before
// `1.2.0`), also written `>=1.2.0` or `>1.2.0`; null for anything else.
function lowestHomeagent(field: string): semver.SemVer | null {
  return semver.parse(field.trim().replace(/^>=?\s*/, ''));
}
