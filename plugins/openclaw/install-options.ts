// A skill's install specs as the options a person is shown (`skills info`, `skills install`) and `skills setup`
// runs: each with its id, the exact command (or download) in one line, and whether it applies to this platform.
import type { SkillInstallOption } from '../../protocol/skills';
import type { InstallSpec } from './skills/types';

/** The command a package-manager spec runs, as argv; a download has none (the plugin fetches it itself). */
export function installArgv(spec: InstallSpec): string[] | undefined {
  switch (spec.kind) {
    case 'brew':
      return spec.formula ? ['brew', 'install', spec.formula] : ['brew', 'install', '--cask', spec.cask ?? ''];
    case 'node':
      return ['npm', 'install', '-g', spec.package ?? ''];
    case 'go':
      // `go install` outside a module needs a version; OpenClaw's specs mostly carry `@latest` already.
      return ['go', 'install', spec.module?.includes('@') ? spec.module : `${spec.module ?? ''}@latest`];
    case 'uv':
      return ['uv', 'tool', 'install', spec.package ?? ''];
    case 'download':
      return undefined;
  }
}

/** The one line a person reads: the command, or what is downloaded, checked and unpacked where. */
export function describeInstall(spec: InstallSpec, target: string): string {
  const argv = installArgv(spec);
  if (argv) return argv.join(' ');
  const check = spec.sha256 ? `sha256 ${spec.sha256}` : 'no sha256 given: setup refuses it';
  const unpack = shouldExtract(spec) ? `, unpacked${spec.stripComponents ? ` (strip ${spec.stripComponents})` : ''}` : '';
  return `download ${spec.url ?? ''} (${check}) into ${target}${unpack}`;
}

/** Whether a download is an archive to unpack: `extract`, else an `archive` type or an archive file name. */
export function shouldExtract(spec: InstallSpec): boolean {
  if (spec.extract !== undefined) return spec.extract;
  return spec.archive !== undefined || archiveTypeOf(spec) !== undefined;
}

const ARCHIVE_SUFFIXES: [string, string][] = [
  ['.tar.gz', 'tar.gz'],
  ['.tgz', 'tar.gz'],
  ['.tar.bz2', 'tar.bz2'],
  ['.tbz2', 'tar.bz2'],
  ['.tar.xz', 'tar.xz'],
  ['.txz', 'tar.xz'],
  ['.tar', 'tar'],
  ['.zip', 'zip'],
];

/** The archive type of a download: its `archive` field, else its URL's file name; undefined when neither says. */
export function archiveTypeOf(spec: InstallSpec): string | undefined {
  if (spec.archive) return spec.archive.toLowerCase().replace(/^\./, '');
  const file = spec.url ? new URL(spec.url).pathname.toLowerCase() : '';
  return ARCHIVE_SUFFIXES.find(([suffix]) => file.endsWith(suffix))?.[1];
}

/** Every install spec of a skill as an option; `targetOf` names the folder a download goes to. */
export function listInstallOptions(specs: readonly InstallSpec[], platform: string, targetOf: (spec: InstallSpec) => string): SkillInstallOption[] {
  return specs.map((spec, index) => ({
    id: spec.id ?? `${spec.kind}-${index + 1}`,
    kind: spec.kind,
    label: describeInstall(spec, targetOf(spec)),
    bins: spec.bins ?? [],
    applies: spec.os === undefined || spec.os.includes(platform),
    spec: { ...spec },
  }));
}
