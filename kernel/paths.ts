import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CorePaths } from './config';

/** The package's root folder (dist/kernel/main.js lives two levels below it). */
export const PACKAGE_ROOT = path.resolve(__dirname, '..', '..');

/** Built-in plugins, compiled beside the kernel. */
export const BUILTIN_PLUGIN_DIR = path.resolve(__dirname, '..', 'plugins');

/** Picks the data dir: `-data DIR`/`--data DIR`/`--data=DIR`, else HOMEAGENT_DATA, else `data/` beside the package. */
export function resolveDataDir(argv: readonly string[], env: NodeJS.ProcessEnv): string {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if ((arg === '-data' || arg === '--data') && argv[i + 1]) return path.resolve(argv[i + 1] as string);
    if (arg.startsWith('--data=') || arg.startsWith('-data=')) return path.resolve(arg.slice(arg.indexOf('=') + 1));
  }
  if (env['HOMEAGENT_DATA']) return path.resolve(env['HOMEAGENT_DATA']);
  return path.join(PACKAGE_ROOT, 'data');
}

/** The kernel's own folders inside the data dir. */
export interface DataTree {
  data: string;
  run: string;
  pluginData: string;
  configDb: string;
}

/** The run folder of a data dir: sockets, the data dir lock, files that say where to reach a running homed. */
export function runDirOf(dataDir: string): string {
  return path.join(dataDir, 'run');
}

/** Creates the data dir and its fixed folders; `run` holds sockets and is private to the owner. */
export function createDataTree(dataDir: string): DataTree {
  const tree: DataTree = {
    data: dataDir,
    run: runDirOf(dataDir),
    pluginData: path.join(dataDir, 'plugin-data'),
    configDb: path.join(dataDir, 'config.db'),
  };
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o750 });
  fs.mkdirSync(tree.run, { recursive: true, mode: 0o700 });
  fs.chmodSync(tree.run, 0o700);
  fs.mkdirSync(tree.pluginData, { recursive: true, mode: 0o750 });
  return tree;
}

/** Creates the configured folders (and the parent of each configured file). */
export function createConfiguredDirs(paths: CorePaths): void {
  for (const dir of [paths.pluginDir, paths.memoryText, paths.memoryDocuments, paths.knowledge, paths.skills]) {
    fs.mkdirSync(dir, { recursive: true });
  }
  fs.mkdirSync(path.dirname(paths.memoryGraph), { recursive: true });
}

/** Makes existing files owner-only (0600) and folders owner-only (0700): data made before homed set its umask, or by hand. */
export function makePrivate(paths: readonly string[]): void {
  for (const target of paths) {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(target);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) continue;
    const wanted = stat.isDirectory() ? 0o700 : 0o600;
    if ((stat.mode & 0o777) !== wanted) fs.chmodSync(target, wanted);
  }
}

/** The kernel's SQLite databases: settings, conversations and usage, the memory graph, the knowledge index. */
export function databasePaths(tree: DataTree, paths: CorePaths): string[] {
  return [tree.configDb, path.join(tree.data, 'agent.db'), paths.memoryGraph, path.join(tree.data, 'index', 'knowledge.db')];
}

/** The kernel's own databases (with their WAL files) and folders no plugin reads directly. */
export function privatePaths(tree: DataTree, paths: CorePaths): string[] {
  const databases = databasePaths(tree, paths);
  return [
    ...databases.flatMap((db) => [db, `${db}-wal`, `${db}-shm`]),
    path.dirname(paths.memoryGraph),
    paths.memoryText,
    paths.memoryDocuments,
    paths.knowledge,
    path.join(tree.data, 'index'),
  ];
}
