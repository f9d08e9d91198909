import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HOST_MAIN_JS } from './paths';

interface EsbuildLike {
  buildSync(options: { entryPoints: string[]; bundle: boolean; platform: 'node'; target: string; outfile: string; logLevel: 'silent' }): unknown;
}

/**
 * The compiled plugin host bundled into one file, to measure what fewer modules save; null when esbuild
 * is not installed (it arrives with tsx, a devDependency, and is not one of ours).
 */
export function bundleHost(): { file: string; remove(): void } | null {
  let esbuild: EsbuildLike;
  try {
    esbuild = require('esbuild') as EsbuildLike;
  } catch {
    return null;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'homed-bench-bundle-'));
  const file = path.join(dir, 'plugin-host.js');
  esbuild.buildSync({ entryPoints: [HOST_MAIN_JS], bundle: true, platform: 'node', target: 'node20', outfile: file, logLevel: 'silent' });
  return { file, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
