// The parts of a call besides its command or path that decide what it does: the working folder and the variables it
// sets. A rule covers them too, and a question shows them.
import * as path from 'node:path';

/** The folder a call that names none runs in: the tool's default (exec: its first root), which `cwd: "."` names too. */
export const DEFAULT_CWD = '.';

/** The call's arguments as an object (none for a call whose arguments are not one). */
export function argsOf(args: unknown): Record<string, unknown> {
  return (typeof args === 'object' && args !== null && !Array.isArray(args) ? args : {}) as Record<string, unknown>;
}

/** The working folder the call names, normalised; DEFAULT_CWD when it names none; undefined when `cwd` is not a text. */
export function cwdOf(args: Record<string, unknown>): string | undefined {
  const cwd = args['cwd'];
  if (cwd === undefined || cwd === null || cwd === '') return DEFAULT_CWD;
  return typeof cwd === 'string' ? normalFolder(cwd) : undefined;
}

/** A folder with `.`, `..` and repeated or trailing slashes resolved. */
export function normalFolder(folder: string): string {
  const normal = path.posix.normalize(folder);
  return normal.length > 1 ? normal.replace(/\/$/, '') : normal;
}

/** The variables the call sets, or undefined when `env` is there and is not an object of texts. */
export function envOf(args: Record<string, unknown>): Record<string, string> | undefined {
  const env = args['env'];
  if (env === undefined || env === null) return {};
  if (typeof env !== 'object' || Array.isArray(env)) return undefined;
  const entries = Object.entries(env as Record<string, unknown>);
  return entries.every(([, value]) => typeof value === 'string') ? Object.fromEntries(entries as [string, string][]) : undefined;
}
