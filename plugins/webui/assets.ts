// The page's built files: scripts/build-webui.js bundles them with hashed names and writes a manifest
// that maps each entry (`app.js`, `app.css`, `login.js`) to its file; the server serves only what it lists.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the build puts the assets, beside the compiled plugin. */
export const ASSET_DIR = join(__dirname, 'assets');
/** The manifest's name inside ASSET_DIR. */
export const MANIFEST_FILE = 'manifest.json';

/** Entries the pages reference. */
export const ASSET_ENTRIES = ['app.js', 'app.css', 'login.js'] as const;
export type AssetEntry = (typeof ASSET_ENTRIES)[number];

/** One built file held in memory: its content and type. */
export interface Asset {
  body: Buffer;
  type: string;
}

/** The built files by hashed name, and the hashed name of each entry. */
export interface Assets {
  entries: Record<AssetEntry, string>;
  files: Map<string, Asset>;
}

/** Reads the manifest and every file it lists; a missing build names the folder and the command that makes it. */
export function loadAssets(dir: string = ASSET_DIR): Assets {
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new Error(
      `the web page's files are missing from ${dir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); build them with npm run build (scripts/build-webui.js)`,
    );
  }
  const entries = {} as Record<AssetEntry, string>;
  const files = new Map<string, Asset>();
  for (const entry of ASSET_ENTRIES) {
    const name = manifest[entry];
    if (typeof name !== 'string' || !/^[\w.-]+$/.test(name))
      throw new Error(`${join(dir, MANIFEST_FILE)} lists no file for ${entry}; rebuild with npm run build`);
    entries[entry] = name;
    files.set(name, { body: readFileSync(join(dir, name)), type: name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8' });
  }
  return { entries, files };
}
