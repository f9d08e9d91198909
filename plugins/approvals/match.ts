// Which rule decides a tool call: rules name a tool and, for a call with a `command`, an argv prefix or the exact
// line; for a call with a `path`, a glob or the exact path; or nothing (every call of the tool).
import * as path from 'node:path';
// The files plugin matches list_files globs with picomatch too, so a glob means the same in both.
import picomatch from 'picomatch';
import type { ApprovalRule } from '../../protocol';
import { commandLine, commandWords } from './command-line';

/** A tool call as the guard sees it. */
export interface GuardedCall {
  name: string;
  args: unknown;
}

/** Whether `rule` matches `call`. */
export function ruleMatches(rule: ApprovalRule, call: GuardedCall): boolean {
  if (rule.tool !== call.name) return false;
  const args = (typeof call.args === 'object' && call.args !== null ? call.args : {}) as Record<string, unknown>;
  if (rule.prefix !== undefined) return prefixMatches(rule.prefix, args['command']);
  if (rule.command !== undefined) return commandLine(args['command']) === rule.command.trim();
  if (rule.glob !== undefined) return globMatches(rule.glob, args['path']);
  if (rule.path !== undefined) return normalPath(args['path']) === normalPath(rule.path);
  return true;
}

/** `git status` matches `git status -s` and ['git', 'status'], never `git statusx`, `git` alone, or a line with shell operators. */
export function prefixMatches(prefix: string, command: unknown): boolean {
  const want = prefix.trim().split(/\s+/).filter(Boolean);
  const words = commandWords(command);
  if (!words || want.length === 0 || words.length < want.length) return false;
  return want.every((word, i) => words[i] === word);
}

/** Whether a path matches a glob, after `.` and `..` are resolved (a path climbing out of where it starts matches nothing). */
export function globMatches(glob: string, candidate: unknown): boolean {
  const normal = normalPath(candidate);
  return normal !== undefined && picomatch(glob, { dot: true })(normal);
}

/** The path with `.`, `..` and repeated slashes resolved; undefined for a non-string, a NUL, or a relative path climbing above its start. */
function normalPath(candidate: unknown): string | undefined {
  if (typeof candidate !== 'string' || candidate === '' || candidate.includes('\0')) return undefined;
  const normal = path.posix.normalize(candidate);
  if (normal === '..' || normal.startsWith('../')) return undefined;
  return normal.length > 1 ? normal.replace(/\/$/, '') : normal;
}
