// Which rule decides a tool call. A rule names a tool and, for a call with a `command`, an argv prefix or the exact
// line; for a call with a `path`, a glob or the exact path; or nothing (every call of the tool). It covers the rest of
// the call too: a rule with a `cwd` only calls in that folder, and an allow rule only calls whose variables it lists
// with the same values; no allow rule covers a variable of RISKY_ENV (risky-env.ts). A deny rule refuses whatever
// variables come with the call.
import * as path from 'node:path';
// The files plugin matches list_files globs with picomatch too, so a glob means the same in both.
import picomatch from 'picomatch';
import type { ApprovalRule } from '../../protocol';
import { argsOf, cwdOf, envOf, normalFolder } from './call-parts';
import { commandLine, commandWords } from './command-line';
import { isRiskyEnvName } from './risky-env';

/** A tool call as the guard sees it. */
export interface GuardedCall {
  name: string;
  args: unknown;
}

/** Whether `rule` matches `call`: its tool, its pattern, its folder and (for an allow rule) every variable of the call. */
export function ruleMatches(rule: ApprovalRule, call: GuardedCall): boolean {
  if (rule.tool !== call.name) return false;
  const args = argsOf(call.args);
  if (!patternMatches(rule, args)) return false;
  if (rule.cwd !== undefined && cwdOf(args) !== normalFolder(rule.cwd)) return false;
  return rule.action === 'deny' || envCovered(rule.env ?? {}, args);
}

function patternMatches(rule: ApprovalRule, args: Record<string, unknown>): boolean {
  if (rule.prefix !== undefined) return prefixMatches(rule.prefix, args['command']);
  if (rule.command !== undefined) return commandLine(args['command']) === rule.command.trim();
  if (rule.glob !== undefined) return globMatches(rule.glob, args['path']);
  if (rule.path !== undefined) return normalPath(args['path']) === normalPath(rule.path);
  return true;
}

/** Every variable the call sets is listed in `allowed` with the same value, and none is risky. */
function envCovered(allowed: Readonly<Record<string, string>>, args: Record<string, unknown>): boolean {
  const env = envOf(args);
  if (env === undefined) return false;
  return Object.entries(env).every(([name, value]) => !isRiskyEnvName(name) && Object.hasOwn(allowed, name) && allowed[name] === value);
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
