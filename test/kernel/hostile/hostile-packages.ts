// The hostile plugin packages: folders under test/fixtures/hostile, packed into real .hmap files at test time.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findTool } from '../../../kernel/supervisor/sandbox';
import type { PluginInfo } from '../../../protocol';
import { packPlugin } from '../../../scripts/pack/pack';
import { REPO_ROOT } from '../kernel-harness';

/** Source folders of the hostile plugins (and their well-behaved neighbour). */
export const HOSTILE_FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'hostile');

/** The privileged walls are up only for root with util-linux at hand; elsewhere the tests say so and skip. */
export const IS_ROOT = process.getuid?.() === 0;
export const CAN_SET_UID = IS_ROOT && findTool('setpriv') !== null;
export const CAN_UNSHARE = IS_ROOT && findTool('unshare') !== null;

/**
 * Packs the fixture folder `name` with the pack library into `<work>/hmap/<name>-<version>.hmap`; `changes`
 * are merged into its plugin.json first (a `name` among them packs it under that name). Answers the file.
 */
export async function packHostile(name: string, work: string, changes: Record<string, unknown> = {}): Promise<string> {
  const packedAs = typeof changes['name'] === 'string' ? changes['name'] : name;
  const src = path.join(work, 'src', packedAs);
  fs.cpSync(path.join(HOSTILE_FIXTURES, name), src, { recursive: true });
  const manifestFile = path.join(src, 'plugin.json');
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, unknown>;
  fs.writeFileSync(manifestFile, JSON.stringify({ ...manifest, ...changes }, null, 2));
  return (await packPlugin(src, path.join(work, 'hmap'))).file;
}

/** The named wall from a PluginInfo's sandbox list; throws when it is not reported at all. */
export function findWall(walls: PluginInfo['sandbox'], name: string): PluginInfo['sandbox'][number] {
  const wall = walls.find((w) => w.wall === name);
  if (!wall) throw new Error(`wall "${name}" is not reported; reported: ${walls.map((w) => w.wall).join(', ')}`);
  return wall;
}
