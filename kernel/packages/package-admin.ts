import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  ErrorCodes,
  haError,
  OWNER_GRANTED_PERMISSIONS,
  type PluginsInstallParams,
  type PluginsInstallResult,
  type PluginsRemoveParams,
  type SkillPackagesChangedEvent,
} from '../../protocol';
import { CORE_SCOPE, type ConfigRegistry } from '../config';
import { kindOfEntry, readManifest, type PluginKind, type PluginRecord } from '../registry/discover';
import { homedUserNote, planSandbox } from '../supervisor/sandbox';
import { reclaimTree } from '../supervisor/sandbox-files';
import type { PluginSupervisor } from '../supervisor/plugin-supervisor';
import type { Supervisor } from '../supervisor/supervisor';
import { InstallError } from './errors';
import { inspectPackage } from './inspect';
import { installPackage } from './install';
import { loadInstallLimits, type InstallLimits } from './limits';
import { isPluginName } from './package-check';
import type { PackagePolicy } from './package-policy';
import { pinPackage, type PinnedPackage } from './pinned-copy';
import { removePackage } from './remove';

/** What installing and removing packages touches in the kernel. */
export interface PackageDeps {
  supervisor: Supervisor;
  config: ConfigRegistry;
  /** Folder of installed plugins (`core.plugin.dir`). */
  pluginDir: string;
  /** A plugin's data folder. */
  pluginDataDir(name: string): string;
  /** The running HomeAgent's version. */
  kernelVersion: string;
  /** Tells whoever listens (the openclaw plugin) that a skill package came, changed or went. */
  skillsChanged?(event: SkillPackagesChangedEvent): void;
}

/**
 * plugins/install and plugins/remove, one at a time: stop, swap on disk, supervise the new version. A skill package
 * (entry SKILL.md) runs no process: it is installed and removed on disk only, for the openclaw plugin to read.
 */
export class PackageAdmin {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: PackageDeps) {}

  install(params: PluginsInstallParams): Promise<PluginsInstallResult> {
    return this.serialize(() => this.doInstall(params));
  }

  remove(params: PluginsRemoveParams): Promise<{ removed: boolean }> {
    return this.serialize(() => this.doRemove(params));
  }

  /** Supervises an installed plugin folder the supervisor does not know yet (one put back after a crash mid-install). */
  async adopt(name: string): Promise<PluginSupervisor> {
    const dir = path.join(this.deps.pluginDir, name);
    const manifest = readManifest(dir);
    if (typeof manifest === 'string') throw haError(ErrorCodes.InvalidValue, `installed, but the kernel cannot load it: ${manifest}`, { plugin: name });
    const record: PluginRecord = { name, manifest, dir, entry: path.join(dir, manifest.entry), kind: kindOfEntry(manifest.entry) };
    let refused: string | undefined;
    try {
      this.deps.config.define(name, manifest.config ?? []);
    } catch (error) {
      refused = `cannot start: its plugin.json declares a setting the kernel refuses: ${(error as Error).message}`;
    }
    return this.deps.supervisor.addOrReplace(record, refused);
  }

  private async doInstall(params: PluginsInstallParams): Promise<PluginsInstallResult> {
    const { pluginDir } = this.deps;
    if (!path.isAbsolute(params.file)) throw haError(ErrorCodes.InvalidValue, `"${params.file}" is not an absolute path; give the .hmap file's full path`);
    const limits = loadInstallLimits((key) => this.deps.config.getValue(CORE_SCOPE, key));
    // The file is read once, into a private copy: what is checked, shown and installed cannot change underneath.
    const pinned = await answerRefusal(() => pinPackage(params.file, pluginDir, limits));
    try {
      if (params.sha256 !== undefined && params.sha256 !== pinned.sha256) {
        throw haError(
          ErrorCodes.Conflict,
          `${params.file} changed since it was shown (its sha256 is now ${pinned.sha256}, not ${params.sha256}); nothing was installed: run the install again to see what it is now`,
          { file: params.file },
        );
      }
      return await this.installPinned(pinned, { inspectOnly: params.inspectOnly === true, owner: params.owner === true, file: params.file }, limits);
    } finally {
      await pinned.discard();
    }
  }

  private async installPinned(
    pinned: PinnedPackage,
    how: { inspectOnly: boolean; owner: boolean; file: string },
    limits: InstallLimits,
  ): Promise<PluginsInstallResult> {
    const { inspectOnly } = how;
    const { supervisor, pluginDir } = this.deps;
    const policy: PackagePolicy = { builtinNames: this.builtinNames(), homeagentVersion: this.deps.kernelVersion };
    // Every check first, writing nothing: a refused package never stops the running version.
    const inspected = await answerRefusal(() => inspectPackage(pinned.file, limits, policy));
    const homedUser = inspected.kind === 'skill' ? {} : this.homedUser(inspected.manifest.name, inspected.kind, inspected.manifest.permissions ?? []);
    const source = { sha256: pinned.sha256, bytes: pinned.bytes };
    if (inspectOnly) return { ...inspected, installed: false, ...source, ...homedUser };
    if (!how.owner) refuseOwnerGrants(inspected.manifest.name, inspected.manifest.permissions ?? [], how.file);
    const name = inspected.manifest.name;
    const old = supervisor.plugins.get(name);
    const wasSkill = !old && this.isSkillPackage(name);
    const wasRunning = old?.process !== undefined;
    if (old) await old.stop('upgrade', old.state === 'disabled' ? 'disabled' : 'stopped');
    let installed;
    try {
      installed = await answerRefusal(() => installPackage(pinned.file, { pluginsDir: pluginDir, limits, ...policy }));
    } catch (error) {
      // The library left the old version in place: bring it back as it was.
      if (old && wasRunning) await old.start();
      throw error;
    }
    const result: PluginsInstallResult = {
      manifest: installed.manifest,
      kind: installed.kind,
      entries: inspected.entries,
      installed: true,
      ...source,
      ...(installed.upgradedFrom === undefined ? {} : { upgradedFrom: installed.upgradedFrom }),
    };
    if (installed.skill) {
      // No process: a plugin it replaced leaves supervision; the openclaw plugin serves the skill.
      if (old) supervisor.drop(name);
      // New to the skills when it replaced a plugin that ran.
      const change = wasSkill ? 'upgraded' : 'installed';
      this.deps.skillsChanged?.({ name, change, version: installed.manifest.version });
      return { ...result, skill: installed.skill };
    }
    if (wasSkill) this.deps.skillsChanged?.({ name, change: 'removed' });
    const plugin = await this.adopt(name);
    return { ...result, plugin: plugin.status(), ...homedUser };
  }

  /** Whether an installed folder of that name holds a skill package (and no process of it is supervised). */
  private isSkillPackage(name: string): boolean {
    const manifest = readManifest(path.join(this.deps.pluginDir, name));
    return typeof manifest !== 'string' && kindOfEntry(manifest.entry) === 'skill';
  }

  /** Where a plugin of this name would get no uid of its own: why, for the person to read before installing. */
  private homedUser(name: string, kind: PluginKind, permissions: string[]): { runs_as_homed_user?: string } {
    const note = homedUserNote(
      planSandbox({
        name,
        kind,
        pluginDir: path.join(this.deps.pluginDir, name),
        pluginData: this.deps.pluginDataDir(name),
        dataDir: this.deps.supervisor.dataDir,
        permissions,
        maxOpenFiles: 0,
      }),
    );
    return note === null ? {} : { runs_as_homed_user: note };
  }

  private async doRemove(params: PluginsRemoveParams): Promise<{ removed: boolean }> {
    const { supervisor, pluginDir, config } = this.deps;
    const { name } = params;
    if (!isPluginName(name)) throw haError(ErrorCodes.InvalidValue, `"${name}" is not a plugin name; names are lower-case letters, digits and '-', at most 64`);
    const plugin = supervisor.plugins.get(name);
    if (plugin?.record.kind === 'builtin') {
      throw haError(ErrorCodes.Conflict, `"${name}" is a built-in plugin and cannot be removed; disable it with: homectl plugins disable ${name}`, {
        plugin: name,
      });
    }
    if (!plugin && !fs.existsSync(path.join(pluginDir, name))) {
      throw haError(ErrorCodes.NotFound, `no installed plugin named "${name}"; see homectl plugins list`, { plugin: name });
    }
    const wasSkill = !plugin && this.isSkillPackage(name);
    if (plugin) await plugin.stop('remove');
    const removed = await removePackage(pluginDir, name);
    supervisor.drop(name);
    if (wasSkill && removed) this.deps.skillsChanged?.({ name, change: 'removed' });
    if (params.purge) {
      config.dropScope(name);
      // A sandboxed plugin's folder is its uid's; homed takes it back first (it reads no other uid's files).
      reclaimTree(this.deps.pluginDataDir(name));
      await fs.promises.rm(this.deps.pluginDataDir(name), { recursive: true, force: true });
    }
    return { removed: removed || plugin !== undefined };
  }

  private builtinNames(): string[] {
    return [...this.deps.supervisor.plugins.values()].filter((p) => p.record.kind === 'builtin').map((p) => p.name);
  }

  private serialize<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

/** Turns an installer refusal into the error the caller sees (naming the entry and the rule). */
async function answerRefusal<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof InstallError ? error.toResponseError() : error;
  }
}

/**
 * A package asking for what only the owner grants (OWNER_GRANTED_PERMISSIONS) is installed only on the owner's own
 * call (homectl on the admin socket): from the page, the shared socket or the agent it could hand itself the house.
 */
function refuseOwnerGrants(name: string, permissions: readonly string[], file: string): void {
  const asked = permissions.filter((p) => (OWNER_GRANTED_PERMISSIONS as readonly string[]).includes(p));
  if (asked.length === 0) return;
  throw haError(
    ErrorCodes.PermissionDenied,
    `package "${name}" asks for ${asked.map((p) => `"${p}"`).join(', ')}, which only the owner grants, on the machine running homed; nothing was installed. ` +
      `Review it and install it there with: homectl plugins install ${path.basename(file)} (as homed's user or root)`,
    { plugin: name, permissions: asked },
  );
}
