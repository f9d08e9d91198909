import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { PackError } from './errors';
import { packPlugin } from './pack';

const USAGE = `usage: scripts/hmap-pack [--out DIR] PLUGIN_DIR
       npm run hmap-pack -- [--out DIR] PLUGIN_DIR

Packs the plugin folder PLUGIN_DIR (the one with plugin.json) into <name>-<version>.hmap,
written to the current folder or to --out DIR. Every regular file under PLUGIN_DIR is
stored; symbolic links and special files are refused.`;

/** Runs hmap-pack with its command-line arguments; answers the exit code (0 packed, 1 refused, 2 usage). */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    process.stderr.write(`hmap-pack: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (parsed.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  // `npm run` starts scripts in the package root; INIT_CWD is where the person typed the command.
  const base = env['INIT_CWD'] ?? process.cwd();
  try {
    const result = await packPlugin(path.resolve(base, parsed.dir), path.resolve(base, parsed.out ?? '.'));
    const { name, version } = result.manifest;
    process.stdout.write(`wrote ${result.file}: ${name} ${version} (${result.kind}), ${result.files} files, ${result.bytes} bytes\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof PackError)) throw error;
    process.stderr.write(`hmap-pack: ${error.message}\n`);
    return 1;
  }
}

function parse(argv: readonly string[]): { dir: string; out: string | undefined; help: boolean } {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: { out: { type: 'string', short: 'o' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
  });
  if (values.help) return { dir: '', out: undefined, help: true };
  if (positionals.length !== 1 || positionals[0] === undefined) throw new Error('give exactly one plugin folder');
  return { dir: positionals[0], out: values.out, help: false };
}
