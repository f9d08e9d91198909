// Sandboxed plugin hosts run from a copy of the compiled host, not from the package: the package may sit
// where another uid cannot reach it (a root user's clone under /root, 0700), or reach its packages through
// a symlink the permission model refuses. The copy, <data>/sandbox-host/<fingerprint>/, holds exactly what
// the host loads, is owned by homed's user, readable by all, and is made again when the package changes.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Where the copies live inside the data dir. */
export const HOST_COPY_DIR = 'sandbox-host';
/** Node packages the host loads: the wire, and fengari, which the host's Lua loader requires at start whatever the kind. */
const HOST_PACKAGES = ['vscode-jsonrpc', 'fengari'];
/** The preload, relative to dist/. */
const PRELOAD = path.join('kernel', 'supervisor', 'sandbox-preload.js');
/** Deepest folder nesting copied: a symlink loop inside a package must end in an error, not a hang. */
const MAX_DEPTH = 40;
/** What the host never loads: each file made costs about a millisecond on a slow disk, and there are hundreds. */
const NOT_LOADED = /(\.d\.ts|\.map|\.md)$/;

/** Whether a folder entry goes into the copy: not node_modules/.bin, not types, maps or docs. */
function isCopied(name: string): boolean {
  return name !== '.bin' && !NOT_LOADED.test(name);
}

/** A compiled HomeAgent package: its root (with package.json and node_modules) and its compiled tree. */
export interface HostPackage {
  /** The folder with package.json and node_modules. */
  root: string;
  /** The compiled tree (dist/). */
  dist: string;
}

/** The package this kernel runs from (dist/kernel/supervisor → the package). */
export const INSTALLED_PACKAGE: HostPackage = { root: path.resolve(__dirname, '..', '..', '..'), dist: path.resolve(__dirname, '..', '..') };

/** What a host copy holds, and a fingerprint of it. */
export interface HostSources {
  /** The package they were read from. */
  package: HostPackage;
  /** Each file or folder of the package and where it goes in the copy. */
  list: { from: string; to: string }[];
  /** Hash of every copied file's path, size and modification time. */
  fingerprint: string;
}

/** Where a sandboxed host runs from. */
export interface HostCopy {
  /** The copy's root, the one folder the host reads. */
  root: string;
  /** The host's entry. */
  main: string;
  /** The module preloaded into a sandboxed host (see sandbox-preload.ts). */
  preload: string;
}

/** Reads what the host copy of `pkg` holds: the compiled host and protocol, the preload, package.json, and the node packages the host loads. */
export function readHostSources(pkg: HostPackage): HostSources {
  const dist = path.relative(pkg.root, pkg.dist);
  const list = [
    // The package.json that says how dist/ is loaded (CommonJS).
    { from: path.join(pkg.root, 'package.json'), to: 'package.json' },
    { from: path.join(pkg.dist, 'plugin-host'), to: path.join(dist, 'plugin-host') },
    { from: path.join(pkg.dist, 'protocol'), to: path.join(dist, 'protocol') },
    { from: path.join(pkg.dist, PRELOAD), to: path.join(dist, PRELOAD) },
    ...nodePackages(pkg.root).map((found) => ({ from: found.dir, to: path.join('node_modules', found.name) })),
  ];
  const hash = createHash('sha256');
  for (const source of list) {
    walkFiles(source.from, source.to, 0, (to, stat) => hash.update(`${to}\0${stat.size}\0${stat.mtimeMs}\n`));
  }
  return { package: pkg, list, fingerprint: hash.digest('hex').slice(0, 16) };
}

let installed: HostSources | undefined;

/** The running package's sources, read once per process: the host that the running kernel speaks with. */
function installedSources(): HostSources {
  return (installed ??= readHostSources(INSTALLED_PACKAGE));
}

/** Where the host copy is (or will be) in `dataDir`; pure apart from reading the package once. */
export function hostCopyIn(dataDir: string, sources: HostSources = installedSources()): HostCopy {
  const root = path.join(dataDir, HOST_COPY_DIR, sources.fingerprint);
  const dist = path.relative(sources.package.root, sources.package.dist);
  return { root, main: path.join(root, dist, 'plugin-host', 'main.js'), preload: path.join(root, dist, PRELOAD) };
}

/**
 * Makes the host copy unless it is there: copied aside, made readable by all, then renamed into place,
 * so a copy that exists is whole. Copies of other versions of the package are removed.
 */
export function ensureHostCopy(dataDir: string, sources: HostSources = installedSources()): HostCopy {
  const copy = hostCopyIn(dataDir, sources);
  const parent = path.dirname(copy.root);
  if (!fs.existsSync(copy.root)) {
    fs.mkdirSync(parent, { recursive: true });
    fs.chmodSync(parent, 0o755);
    const draft = fs.mkdtempSync(path.join(parent, '.new-'));
    try {
      for (const source of sources.list) copyTree(source.from, path.join(draft, source.to), 0);
      makeReadable(draft);
      fs.renameSync(draft, copy.root);
    } catch (error) {
      fs.rmSync(draft, { recursive: true, force: true });
      throw new Error(`could not copy the plugin host into ${parent} (${(error as Error).message}); check the free space and permissions there`);
    }
  }
  for (const name of fs.readdirSync(parent)) {
    if (name !== path.basename(copy.root)) fs.rmSync(path.join(parent, name), { recursive: true, force: true });
  }
  return copy;
}

/** Copies a file or folder, following symlinks, leaving out what the host never loads. */
function copyTree(from: string, to: string, depth: number): void {
  if (depth > MAX_DEPTH) throw new Error(`${from} is nested more than ${MAX_DEPTH} folders deep (a symlink loop?)`);
  const stat = fs.statSync(from);
  if (stat.isDirectory()) {
    fs.mkdirSync(to, { recursive: true });
    for (const name of fs.readdirSync(from)) {
      if (isCopied(name)) copyTree(path.join(from, name), path.join(to, name), depth + 1);
    }
  } else if (stat.isFile()) {
    fs.mkdirSync(path.dirname(to), { recursive: true });
    // By content, not fs.copyFileSync: on Node 24 that fails with EPERM (its fchmod) in homed's service, whose ambient
    // capabilities it runs with; the modes are set by makeReadable afterwards anyway.
    fs.writeFileSync(to, fs.readFileSync(from));
  }
}

/** Modes any uid can read, whatever homed's umask made: folders 0755, files 0644 (0755 if executable). */
function makeReadable(dir: string): void {
  fs.chmodSync(dir, 0o755);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) makeReadable(full);
    else fs.chmodSync(full, fs.statSync(full).mode & 0o100 ? 0o755 : 0o644);
  }
}

/** Calls `visit` for every file under `from` (following symlinks), with its path in the copy. */
function walkFiles(from: string, to: string, depth: number, visit: (to: string, stat: fs.Stats) => void): void {
  if (depth > MAX_DEPTH) throw new Error(`${from} is nested more than ${MAX_DEPTH} folders deep (a symlink loop?)`);
  const stat = fs.statSync(from);
  if (stat.isFile()) return visit(to, stat);
  if (!stat.isDirectory()) return;
  for (const name of fs.readdirSync(from).sort()) {
    if (isCopied(name)) walkFiles(path.join(from, name), path.join(to, name), depth + 1, visit);
  }
}

/** An installed node package: its name and its folder. */
interface NodePackage {
  name: string;
  dir: string;
}

/**
 * The host's node packages and their runtime dependencies, each resolved from the package that needs it.
 * A dependency found inside another package's folder comes along with that folder; the others sit side
 * by side in the copy's node_modules, where node finds them from anywhere in the copy.
 */
function nodePackages(packageRoot: string): NodePackage[] {
  const found = new Map<string, NodePackage>();
  const visit = (name: string, from: string): void => {
    const dir = packageDir(name, from);
    if (found.has(dir)) return;
    found.set(dir, { name, dir });
    for (const dep of dependenciesOf(dir)) visit(dep, dir);
  };
  for (const name of HOST_PACKAGES) visit(name, packageRoot);
  const all = [...found.values()];
  const topLevel = all.filter((pkg) => !all.some((other) => other !== pkg && pkg.dir.startsWith(other.dir + path.sep)));
  const names = new Map<string, string>();
  for (const pkg of topLevel) {
    const seen = names.get(pkg.name);
    if (seen !== undefined)
      throw new Error(`two copies of the package ${pkg.name} are needed by the plugin host (${seen} and ${pkg.dir}); reinstall with npm ci`);
    names.set(pkg.name, pkg.dir);
  }
  return topLevel;
}

/** The folder of package `name` as node resolves it from `from` (symlinks resolved). */
function packageDir(name: string, from: string): string {
  try {
    return path.dirname(require.resolve(`${name}/package.json`, { paths: [from] }));
  } catch {
    // a package whose "exports" hide package.json: from its entry up to the folder with its package.json
  }
  let dir: string;
  try {
    dir = path.dirname(require.resolve(name, { paths: [from] }));
  } catch (error) {
    throw new Error(
      `the plugin host needs the node package ${name}, which node cannot find from ${from} (${(error as Error).message.split('\n')[0]}); reinstall HomeAgent's packages (npm ci)`,
    );
  }
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

function dependenciesOf(dir: string): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  return Object.keys(manifest.dependencies ?? {});
}
