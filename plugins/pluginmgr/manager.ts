// What the tools and the HTTP API share: fetch a package into a temporary file, have the kernel check
// and install it, and list, describe and remove plugins, all through the kernel's admin methods.
import type { Readable } from 'node:stream';
import { reportSkillPackage, runWithDeadline, type PluginContext } from '../../plugin-host';
import {
  ErrorCodes,
  ErrorNames,
  type PluginsInstallResult,
  PluginsInfoRequest,
  PluginsInstallRequest,
  PluginsListRequest,
  PluginsRemoveRequest,
  type PluginInfo,
  type PluginStatus,
} from '../../protocol';
import { PluginmgrHttpErrors, type PluginmgrInstallAnswer, type PluginmgrPackageFacts, type PluginmgrRemoveAnswer } from '../../protocol/pluginmgr';
import { copyCapped } from './capped-copy';
import { fetchPackage, parseSource } from './download';
import { PluginmgrError, timeoutError, tooLargeError } from './errors';
import { readTransferLimits, type TransferLimits } from './settings';
import type { StagingArea } from './staging';

/** Transfers at once: each may hold a package's worth of disk in the staging folder. */
export const MAX_TRANSFERS = 4;

/** How a package is installed. */
export interface InstallOptions {
  /** Check and describe it only. */
  inspectOnly?: boolean;
  /** Install only a package with this SHA-256 (hex). */
  sha256?: string;
  /** Refuse a package that asks for any of these permissions. */
  refusedPermissions?: readonly string[];
  /** Who asked, for the refusal's advice and the log. */
  via: 'agent' | 'http';
  /** Shown a skill package's trust report before anything is installed (the agent's call shows it to the person). */
  showReport?: (report: string) => void;
  /** Refuse a skill package whose trust report flags anything (the agent cannot be the one who reads it). */
  refuseFlaggedSkills?: boolean;
}

/** Fetches packages and drives the kernel's package methods. */
export class PackageManager {
  private transfers = 0;
  private readonly stopped = new AbortController();

  constructor(
    private readonly ctx: PluginContext,
    private readonly staging: StagingArea,
  ) {}

  /** The current limits of one transfer (read from the settings each time). */
  limits(): Promise<TransferLimits> {
    return readTransferLimits(this.ctx);
  }

  /** Installs (or inspects) the package at an http(s)/file URL or an absolute path. */
  async installFromUrl(given: string, options: InstallOptions): Promise<PluginmgrInstallAnswer> {
    const source = parseSource(given);
    const hint = source.kind === 'http' ? source.url.pathname : source.path;
    return this.transfer(hint, `the download of ${given}`, options, (file, limits, signal) => fetchPackage(source, file, limits.maxBytes, signal));
  }

  /** Installs (or inspects) a package sent as a request body. */
  installFromUpload(body: Readable, options: InstallOptions): Promise<PluginmgrInstallAnswer> {
    return this.transfer('upload.hmap', 'the upload', options, async (file, limits, signal) => ({
      ...(await copyCapped(body, file, limits.maxBytes, () => tooLargeError('the uploaded package', limits.maxBytes), signal)),
      source: 'upload',
    }));
  }

  /** Every plugin. */
  async list(): Promise<PluginStatus[]> {
    return (await this.ctx.kernel.call(PluginsListRequest, {})).plugins;
  }

  /** One plugin in detail. */
  async info(name: string): Promise<PluginInfo> {
    return (await this.ctx.kernel.call(PluginsInfoRequest, { name })).plugin;
  }

  /** Stops and removes an installed plugin; `purge` deletes its data and config too. `via` as for installs. */
  async remove(name: string, purge: boolean, via: 'agent' | 'http'): Promise<PluginmgrRemoveAnswer> {
    const { removed } = await this.ctx.kernel.call(PluginsRemoveRequest, { name, purge, ...(via === 'http' ? { owner: true } : {}) });
    this.ctx.log.info('plugin removed', { plugin: name, purge });
    return { removed, name, purged: purge };
  }

  /** Aborts every transfer in flight (their temporary files are removed as they unwind). */
  stop(): void {
    this.stopped.abort(new PluginmgrError(PluginmgrHttpErrors.Busy, 'pluginmgr is stopping; try again once it is back', 503));
  }

  private async transfer(
    hint: string,
    what: string,
    options: InstallOptions,
    fetch: (file: string, limits: TransferLimits, signal: AbortSignal) => Promise<PluginmgrPackageFacts>,
  ): Promise<PluginmgrInstallAnswer> {
    if (this.transfers >= MAX_TRANSFERS) {
      throw new PluginmgrError(PluginmgrHttpErrors.Busy, `${MAX_TRANSFERS} packages are being fetched already; try again when one has finished`, 503);
    }
    this.transfers += 1;
    try {
      const limits = await this.limits();
      return await this.staging.withFile(hint, async (file) => {
        const fetched = await runWithDeadline(limits.timeoutMs, this.stopped.signal, { timedOut: () => timeoutError(what, limits.timeoutMs) }, (signal) =>
          fetch(file, limits, signal),
        );
        if (options.sha256 !== undefined && fetched.sha256 !== options.sha256.toLowerCase()) {
          throw new PluginmgrError(
            PluginmgrHttpErrors.Changed,
            `the package from ${fetched.source} has SHA-256 ${fetched.sha256}, not the ${options.sha256} asked for: it changed since it was inspected; inspect it again`,
            409,
          );
        }
        return await this.install(file, fetched, options);
      });
    } finally {
      this.transfers -= 1;
    }
  }

  private async install(file: string, fetched: PluginmgrPackageFacts, options: InstallOptions): Promise<PluginmgrInstallAnswer> {
    const refused = options.refusedPermissions ?? [];
    // Every skill package is inspected first: its trust report is shown before it is installed, on every path.
    const inspected = await this.ctx.kernel.call(PluginsInstallRequest, { file, inspectOnly: true });
    const skillReport = inspected.kind === 'skill' ? await this.reportSkill(inspected, fetched) : undefined;
    if (skillReport) options.showReport?.(skillReport.report);
    if (options.inspectOnly) return { ...inspected, package: fetched, ...(skillReport ? { skillReport } : {}) };
    const asked = (inspected.manifest.permissions ?? []).filter((p) => refused.includes(p));
    if (asked.length > 0) throw refusedPermissionError(inspected.manifest.name, asked, fetched.source);
    if (skillReport && skillReport.flagged > 0 && options.refuseFlaggedSkills) throw flaggedSkillError(inspected.manifest.name, skillReport, fetched.source);
    // The HTTP API answers only who read its token, a 0600 file of homed's user (homectl at the machine): the owner.
    const result = await this.ctx.kernel.call(PluginsInstallRequest, { file, sha256: fetched.sha256, ...(options.via === 'http' ? { owner: true } : {}) });
    this.ctx.log.info('plugin installed', {
      plugin: result.manifest.name,
      version: result.manifest.version,
      upgradedFrom: result.upgradedFrom,
      via: options.via,
      source: fetched.source,
      sha256: fetched.sha256,
    });
    return { ...result, package: fetched, ...(skillReport ? { skillReport } : {}) };
  }

  /** The trust report of an inspected skill package, built by the openclaw plugin's skills/preview. */
  private async reportSkill(inspected: PluginsInstallResult, fetched: PluginmgrPackageFacts): Promise<{ report: string; flagged: number }> {
    if (!inspected.skill)
      throw new PluginmgrError(
        ErrorNames[ErrorCodes.InvalidValue] as string,
        `the skill package "${inspected.manifest.name}" came without its SKILL.md, so there is nothing to show; nothing was installed`,
        422,
      );
    return reportSkillPackage(this.ctx.kernel, inspected.manifest.name, inspected.skill, {
      source: fetched.source,
      package: { sha256: fetched.sha256, bytes: fetched.bytes },
    });
  }
}

function flaggedSkillError(name: string, skillReport: { report: string; flagged: number }, source: string): PluginmgrError {
  return new PluginmgrError(
    ErrorNames[ErrorCodes.PermissionDenied] as string,
    `skill package "${name}" was not installed: its trust report flags ${skillReport.flagged} item${skillReport.flagged === 1 ? '' : 's'}, and plugin_install installs only a skill whose report flags nothing. ` +
      `A person reads the report and installs it with: homectl plugins install ${source}\n\n${skillReport.report}`,
    403,
  );
}

function refusedPermissionError(name: string, asked: string[], source: string): PluginmgrError {
  const list = asked.map((p) => `"${p}"`).join(', ');
  return new PluginmgrError(
    ErrorNames[ErrorCodes.PermissionDenied] as string,
    `package "${name}" asks for ${list}, which plugin_install does not grant (pluginmgr:agent_refused_permissions); nothing was installed. ` +
      `A person can review and install it with: homectl plugins install ${source}`,
    403,
  );
}
