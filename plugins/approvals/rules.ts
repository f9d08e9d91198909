// The rules in `approvals:rules`: read and checked at each use (a person may edit them in Settings), added by an
// "always" answer or homectl approvals allow, removed by homectl approvals revoke.
import { randomBytes } from 'node:crypto';
import type { ApprovalRule } from '../../protocol';
import { argsOf, cwdOf, envOf } from './call-parts';
import { commandLine, hasShellOperators } from './command-line';
import type { GuardedCall } from './match';
import { riskyNames } from './risky-env';

/** The setting that holds them. */
export const RULES_KEY = 'rules';

/** What a rule may match on besides its tool: one of these, or none (every call of the tool). */
const MATCHERS = ['prefix', 'command', 'glob', 'path'] as const;

/** A rule as given to approvals/allow, before it has an id. */
export type RuleSpec = Pick<ApprovalRule, 'tool' | 'action'> & Partial<Pick<ApprovalRule, (typeof MATCHERS)[number] | 'cwd' | 'env'>>;

/** A bad rule: what is wrong with it, said so a person can fix it. */
export class RuleError extends Error {
  override name = 'RuleError';
}

/** The rules of the setting's value that are well formed; each other entry is named in `problems` and left out. */
export function parseRules(value: unknown): { rules: ApprovalRule[]; problems: string[] } {
  if (value === undefined || value === null) return { rules: [], problems: [] };
  if (!Array.isArray(value)) return { rules: [], problems: ['approvals:rules must be a list of rules; it is ignored, so every call goes by the policy'] };
  const rules: ApprovalRule[] = [];
  const problems: string[] = [];
  value.forEach((entry: unknown, i) => {
    const problem = ruleProblem(entry);
    if (problem) problems.push(`approvals:rules[${i}] is left out: ${problem}`);
    else rules.push(entry as ApprovalRule);
  });
  return { rules, problems };
}

/** Makes a rule from a spec; throws a RuleError saying what is wrong. */
export function makeRule(spec: RuleSpec, addedBy: string, now: number): ApprovalRule {
  const rule: ApprovalRule = {
    id: `r-${randomBytes(3).toString('hex')}`,
    tool: spec.tool,
    action: spec.action,
    added_at: new Date(now).toISOString(),
    added_by: addedBy,
  };
  for (const key of MATCHERS) if (spec[key] !== undefined) rule[key] = spec[key];
  if (spec.cwd !== undefined) rule.cwd = spec.cwd;
  if (spec.env !== undefined && Object.keys(spec.env).length > 0) rule.env = { ...spec.env };
  const problem = ruleProblem(rule);
  if (problem) throw new RuleError(problem);
  return rule;
}

/**
 * The narrowest rule that lets this very call through again: its exact command line in its folder with its variables,
 * or its path, else the whole tool. Undefined for a call no rule may cover (it sets a variable of RISKY_ENV).
 */
export function alwaysRuleFor(call: GuardedCall): RuleSpec | undefined {
  const args = argsOf(call.args);
  const command = commandLine(args['command']);
  if (command) {
    const cwd = cwdOf(args);
    const env = envOf(args);
    if (cwd === undefined || env === undefined || riskyNames(env).length > 0) return undefined;
    return { tool: call.name, action: 'allow', command, cwd, ...(Object.keys(env).length > 0 ? { env } : {}) };
  }
  if (typeof args['path'] === 'string' && args['path'] !== '') return { tool: call.name, action: 'allow', path: args['path'] };
  return { tool: call.name, action: 'allow' };
}

function ruleProblem(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    return 'a rule is an object like {"tool": "exec", "prefix": "git status", "action": "allow"}';
  const rule = entry as Record<string, unknown>;
  if (typeof rule['id'] !== 'string' || rule['id'] === '') return 'it has no "id"';
  if (typeof rule['tool'] !== 'string' || rule['tool'] === '') return 'it names no "tool"';
  if (rule['action'] !== 'allow' && rule['action'] !== 'deny') return `its "action" is ${JSON.stringify(rule['action'])}, not allow or deny`;
  const given = MATCHERS.filter((key) => rule[key] !== undefined);
  if (given.length > 1) return `it gives ${given.join(' and ')}; a rule matches on one of prefix, command, glob, path (or none, for the whole tool)`;
  const around = contextProblem(rule);
  if (around) return around;
  const key = given[0];
  if (key === undefined) return undefined;
  const value = rule[key];
  if (typeof value !== 'string' || value.trim() === '') return `its "${key}" must be a text that is not empty`;
  if (key === 'prefix' && hasShellOperators(value))
    return `its prefix ${JSON.stringify(value)} has shell operators (; | & $( \` > < or a newline); a prefix is the first words of one plain command`;
  return undefined;
}

/** What is wrong with a rule's `cwd` or `env`, if anything: a variable that changes what a program runs is never covered. */
function contextProblem(rule: Record<string, unknown>): string | undefined {
  const cwd = rule['cwd'];
  if (cwd !== undefined && (typeof cwd !== 'string' || cwd.trim() === '')) return 'its "cwd" must be a folder (a text that is not empty)';
  const env = rule['env'];
  if (env === undefined) return undefined;
  if (typeof env !== 'object' || env === null || Array.isArray(env) || !Object.values(env).every((value) => typeof value === 'string')) {
    return 'its "env" must be an object of texts, like {"LANG": "C"}';
  }
  const risky = riskyNames(env as Record<string, string>);
  if (risky.length > 0)
    return `its "env" names ${risky.join(', ')}, which change${risky.length === 1 ? 's' : ''} what a program runs; no rule covers such a variable, a call that sets one is asked every time`;
  return undefined;
}
