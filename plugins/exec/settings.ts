// The settings a call runs with, read at each call (a change applies to the next command without a restart), and
// the allowed roots: the files plugin's `roots` setting (read with the config.others permission), so both tool
// plugins share one list; its default, `<data>/workspace`, when the files plugin is absent or the list is empty.
import * as fs from 'node:fs';
import type { PluginContext } from '../../plugin-host';
import { ErrorCodes } from '../../protocol/errors';
import { loadRoots } from '../../plugin-host/tracker';
import { EXEC_POLICY, type ExecPolicy } from './policy';

export type TrackingSetting = 'auto' | 'overlay' | 'snapshot';

export interface ExecSettings {
  policy: ExecPolicy;
  tracking: TrackingSetting;
  /** Real paths of the allowed roots, created when missing. */
  roots: string[];
  /** Whether the roots came from the default (so exec may hand `<data>/workspace` to its uid). */
  defaultRoots: boolean;
}

/** Reads the plugin's settings and the shared roots. */
export async function readExecSettings(ctx: PluginContext, base: ExecPolicy = EXEC_POLICY): Promise<ExecSettings> {
  const own = new Map((await ctx.config.list()).map((entry) => [entry.key, entry.value]));
  const number = (key: string, fallback: number): number => (typeof own.get(key) === 'number' ? (own.get(key) as number) : fallback);
  const policy: ExecPolicy = {
    ...base,
    maxTimeoutMs: number('max_timeout', base.maxTimeoutMs),
    maxOutputBytes: number('max_output', base.maxOutputBytes),
    maxProcesses: number('nproc', base.maxProcesses),
    network: typeof own.get('network') === 'boolean' ? (own.get('network') as boolean) : base.network,
  };
  const tracking = own.get('tracking');
  const setting = await readFilesRoots(ctx);
  const defaultRoots = setting === undefined || setting === null || (Array.isArray(setting) && setting.length === 0);
  return {
    policy,
    tracking: tracking === 'overlay' || tracking === 'snapshot' ? tracking : 'auto',
    roots: loadRoots(setting, ctx.paths.data, 'files:roots'),
    defaultRoots,
  };
}

async function readFilesRoots(ctx: PluginContext): Promise<unknown> {
  try {
    return await ctx.config.get('roots', 'files');
  } catch (error) {
    // No files plugin (its table is unknown): the default roots.
    if ((error as { code?: unknown }).code === ErrorCodes.NotFound) return undefined;
    throw error;
  }
}

/**
 * The default root is the commands' own: handed to their uid (when homed made it, owned by root) so they can write
 * in it. The set-up enters the working folder as root, so folders above it need not be searchable by that uid.
 */
export function handDefaultRoot(root: string, uid: number, gid: number): void {
  const stat = fs.statSync(root);
  if (stat.uid === 0 && stat.gid === 0) fs.chownSync(root, uid, gid);
}
