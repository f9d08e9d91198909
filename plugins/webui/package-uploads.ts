// Packages uploaded from the Plugins page: each kept under <pluginData>/packages/<random>/ while the person looks at
// what the kernel found in it (name, version, author, permissions, SHA-256), then installed by path or dropped.
// Cancel, a failed install, an install, the deadline and the plugin's stop all delete the file.
import { createHash, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PluginsInstallRequest, PluginsListRequest, type PluginsInstallResult, type WebuiPackageInstalled, type WebuiPackageSummary } from '../../protocol';
import { reportSkillPackage, type KernelClient } from '../../plugin-host';
import { formatBytes, formatDuration } from '../../protocol/format';

/** How long an upload waits for Install, and how many may wait at once. */
export const PACKAGE_UPLOAD_POLICY = { keepMs: 10 * 60_000, maxWaiting: 4 } as const;

/** The folder of waiting uploads inside the plugin's data folder. */
export const PACKAGES_DIR = 'packages';

/** A refusal meant for the person, with the HTTP status it is answered with. */
export class PackageUploadError extends Error {
  override name = 'PackageUploadError';
  constructor(
    readonly status: number,
    message: string,
    /** The kernel's error name (`HA_ERR_…`), when the kernel refused. */
    readonly code?: string,
  ) {
    super(message);
  }
}

interface Waiting {
  summary: WebuiPackageSummary;
  file: string;
  /** The web session that uploaded it: only it may install or drop it. */
  owner: string;
  timer: NodeJS.Timeout;
}

/** What the uploads need: the kernel (plugins/install, plugins/list) and where to keep files. */
export interface PackageUploadDeps {
  kernel: KernelClient;
  pluginData: string;
  policy?: { keepMs: number; maxWaiting: number };
  now?: () => number;
}

export class PackageUploads {
  private readonly waiting = new Map<string, Waiting>();
  /** The folder the waiting uploads are in, one folder each. */
  readonly root: string;
  private readonly policy: { keepMs: number; maxWaiting: number };
  private readonly now: () => number;

  constructor(private readonly deps: PackageUploadDeps) {
    this.root = path.join(deps.pluginData, PACKAGES_DIR);
    this.policy = deps.policy ?? PACKAGE_UPLOAD_POLICY;
    this.now = deps.now ?? Date.now;
  }

  /** Creates the folder (0700) and deletes what a stopped process left in it. */
  prepare(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
    fs.mkdirSync(this.root, { recursive: true, mode: 0o700 });
  }

  /** Writes `body` (at most `maxBytes`) as `fileName`, has the kernel check it without installing, and answers what it is. */
  async receive(owner: string, fileName: string, body: Readable, maxBytes: number): Promise<WebuiPackageSummary> {
    if (this.waiting.size >= this.policy.maxWaiting) {
      throw new PackageUploadError(429, `${this.policy.maxWaiting} uploaded packages already wait for Install or Cancel; answer one of them first`);
    }
    const id = randomUUID();
    const dir = path.join(this.root, id);
    fs.mkdirSync(dir, { mode: 0o700 });
    const file = path.join(dir, safeFileName(fileName));
    try {
      const copied = await copyHashed(body, file, maxBytes);
      const inspected = await this.kernelSays(() => this.deps.kernel.call(PluginsInstallRequest, { file, inspectOnly: true }));
      const installed = (await this.deps.kernel.call(PluginsListRequest, {})).plugins.find((p) => p.name === inspected.manifest.name);
      if (installed?.kind === 'builtin') {
        throw new PackageUploadError(409, `"${installed.name}" is a built-in plugin; a package cannot replace it`);
      }
      const summary = describe(id, inspected, copied, installed?.version ?? null, this.now() + this.policy.keepMs);
      if (inspected.kind === 'skill') summary.skill = await this.kernelSays(() => this.reportSkill(inspected, copied));
      const timer = setTimeout(() => this.discard(owner, id), this.policy.keepMs);
      timer.unref();
      this.waiting.set(id, { summary, file, owner, timer });
      return summary;
    } catch (error) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw error;
    }
  }

  /** Installs a waiting upload (refused unless its bytes are still those shown), then deletes it whatever the kernel answered. */
  async install(owner: string, id: string): Promise<WebuiPackageInstalled> {
    const upload = this.take(owner, id);
    try {
      // The kernel reads the file once and installs it only if it still has the sha256 that was shown.
      const result = await this.kernelSays(() => this.deps.kernel.call(PluginsInstallRequest, { file: upload.file, sha256: upload.summary.sha256 })).catch(
        (error: unknown) => {
          if (error instanceof PackageUploadError && error.code === 'HA_ERR_CONFLICT')
            throw new PackageUploadError(409, 'the uploaded file changed since it was shown; upload it again', error.code);
          throw error;
        },
      );
      return {
        name: result.manifest.name,
        version: result.manifest.version,
        ...(result.upgradedFrom === undefined ? {} : { upgradedFrom: result.upgradedFrom }),
        state: result.plugin?.state ?? 'stopped',
      };
    } finally {
      fs.rmSync(path.dirname(upload.file), { recursive: true, force: true });
    }
  }

  /** Deletes a waiting upload; false when there is none with that id for this session. */
  discard(owner: string, id: string): boolean {
    const upload = this.waiting.get(id);
    if (!upload || upload.owner !== owner) return false;
    this.take(owner, id);
    fs.rmSync(path.dirname(upload.file), { recursive: true, force: true });
    return true;
  }

  /** Uploads waiting now. */
  get size(): number {
    return this.waiting.size;
  }

  /** Deletes every waiting upload. */
  close(): void {
    for (const upload of this.waiting.values()) clearTimeout(upload.timer);
    this.waiting.clear();
    fs.rmSync(this.root, { recursive: true, force: true });
  }

  private take(owner: string, id: string): Waiting {
    const upload = this.waiting.get(id);
    if (!upload || upload.owner !== owner) {
      throw new PackageUploadError(
        404,
        `this upload is gone: it was installed, cancelled or kept past ${formatDuration(this.policy.keepMs)}; upload the file again`,
      );
    }
    clearTimeout(upload.timer);
    this.waiting.delete(id);
    return upload;
  }

  /** A skill package's trust report, the one every install path shows, from the openclaw plugin's skills/preview. */
  private async reportSkill(inspected: PluginsInstallResult, copied: { bytes: number; sha256: string }): Promise<{ report: string; flagged: number }> {
    if (!inspected.skill)
      throw new PackageUploadError(
        422,
        `the skill package "${inspected.manifest.name}" came without its SKILL.md, so there is nothing to show; it is not installed`,
      );
    return reportSkillPackage(this.deps.kernel, inspected.manifest.name, inspected.skill, { source: 'upload', package: copied });
  }

  /** The kernel's refusal as the person should read it: its own message and error name. */
  private async kernelSays<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const data = (error as { data?: { name?: unknown } }).data;
      const name = typeof data?.name === 'string' ? data.name : undefined;
      // A package only the owner may install (it asks for admin) is forbidden to the page, not malformed.
      throw new PackageUploadError(name === 'HA_ERR_PERMISSION_DENIED' ? 403 : 422, (error as Error).message, name);
    }
  }
}

function describe(
  id: string,
  p: PluginsInstallResult,
  copied: { bytes: number; sha256: string },
  installedVersion: string | null,
  expiresAt: number,
): WebuiPackageSummary {
  const m = p.manifest;
  return {
    id,
    name: m.name,
    version: m.version,
    ...(m.author === undefined ? {} : { author: m.author }),
    ...(m.description === undefined ? {} : { description: m.description }),
    kind: p.kind,
    permissions: m.permissions ?? [],
    sha256: copied.sha256,
    bytes: copied.bytes,
    files: p.entries.length,
    unpackedBytes: p.entries.reduce((sum, e) => sum + e.size, 0),
    installedVersion,
    ...(p.runs_as_homed_user === undefined ? {} : { runsAsHomedUser: p.runs_as_homed_user }),
    expiresAt,
  };
}

/** Streams into a new 0600 file, hashing as it goes; past `maxBytes` it stops without writing the excess. */
async function copyHashed(source: Readable, file: string, maxBytes: number): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) return done(new PackageUploadError(413, tooLarge(maxBytes)));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(source, counter, fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }));
  return { bytes, sha256: hash.digest('hex') };
}

/** The refusal of a package past the installer's size cap. */
export function tooLarge(maxBytes: number): string {
  return `the package is larger than ${formatBytes(maxBytes)}, the installer's limit; if you trust it, raise core.packages.max_archive_mb on the Settings page`;
}

/** The uploaded file's name as the kernel's messages show it: letters, digits, `._-`, ending in .hmap. */
function safeFileName(given: string): string {
  const base = (given.split(/[/\\]/).pop() ?? '')
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '')
    .slice(0, 100);
  const named = base === '' ? 'package.hmap' : base;
  return /\.(hmap|zip)$/i.test(named) ? named : `${named}.hmap`;
}
