import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkPackage, inspectPackage, InstallError, type PackageKind } from '../../kernel/packages';
import type { PluginManifest } from '../../protocol';
import { collectFiles } from './collect';
import { PackError } from './errors';
import { writeZip } from './zip-writer';

export interface PackResult {
  /** The .hmap written. */
  file: string;
  manifest: PluginManifest;
  kind: PackageKind;
  /** Files stored. */
  files: number;
  /** Size of the .hmap. */
  bytes: number;
}

/**
 * Packs the plugin folder `dir` into `<outDir>/<name>-<version>.hmap`: plugin.json checked first, regular
 * files only in byte order of their names, fixed times and modes (the same folder gives the same bytes),
 * then the result inspected as the installer would before it replaces any earlier file of that name.
 */
export async function packPlugin(dir: string, outDir: string): Promise<PackResult> {
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new PackError(`${dir} is not a folder; give the folder that holds plugin.json`);
  // Earlier builds lying in the folder are not part of the plugin: a package never holds another.
  const files = collectFiles(dir, (name) => name.endsWith('.hmap') && !name.includes('/'));
  const names = new Set(files.map((f) => f.name));
  const { manifest, kind } = explain(() => checkPackage({ has: (name) => names.has(name), read: (name) => fs.readFileSync(path.join(dir, name)) }));
  fs.mkdirSync(outDir, { recursive: true });
  const target = path.join(outDir, `${manifest.name}-${manifest.version}.hmap`);
  const partial = `${target}.partial-${process.pid}`;
  try {
    await writeZip(
      files.map((f) => ({ name: f.name, data: fs.readFileSync(f.file) })),
      partial,
    );
    await inspectPackage(partial).catch((error: unknown) =>
      explain(() => {
        throw error;
      }),
    );
    fs.renameSync(partial, target);
  } finally {
    fs.rmSync(partial, { force: true });
  }
  return { file: target, manifest, kind, files: files.length, bytes: fs.statSync(target).size };
}

// The installer's refusals, reworded for the person packing: what is wrong, without "the package is refused".
function explain<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof InstallError)) throw error;
    const where = error.entry === undefined ? '' : `${error.entry}: `;
    throw new PackError(`${where}${error.problem} (${error.kind}, rule ${error.rule})`);
  }
}
