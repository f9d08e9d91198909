// The guard's decision before anyone is asked: a deny rule, a tool denied outright, an allow rule, else the policy.
import type { ApprovalRule } from '../../protocol';
import { argsOf, envOf } from './call-parts';
import { ruleMatches, type GuardedCall } from './match';
import { policyOf, type ToolPolicy } from './policy';
import { riskyNames } from './risky-env';

/** What rules and policy make of a call. */
export type Verdict = { action: 'allow' | 'deny'; by: 'rule'; rule: ApprovalRule } | { action: ToolPolicy; by: 'policy' };

/** Deny rules first, then a tool the owner set to `deny`, then allow rules, then the tool's policy (`ask` for a call setting a risky variable). */
export function decide(call: GuardedCall, rules: readonly ApprovalRule[], overrides: Readonly<Record<string, ToolPolicy>>): Verdict {
  const denying = rules.find((rule) => rule.action === 'deny' && ruleMatches(rule, call));
  if (denying) return { action: 'deny', by: 'rule', rule: denying };
  const policy = policyOf(call.name, overrides);
  if (policy === 'deny') return { action: 'deny', by: 'policy' };
  const allowing = rules.find((rule) => rule.action === 'allow' && ruleMatches(rule, call));
  if (allowing) return { action: 'allow', by: 'rule', rule: allowing };
  // A tool allowed outright is still asked about a call that changes what its program runs: no standing permission covers that.
  if (policy === 'allow' && setsRiskyVariables(call)) return { action: 'ask', by: 'policy' };
  return { action: policy, by: 'policy' };
}

/** Whether the call sets a variable of RISKY_ENV (or an `env` that is not an object of texts, which cannot be checked). */
function setsRiskyVariables(call: GuardedCall): boolean {
  const args = argsOf(call.args);
  if (args['env'] === undefined || args['env'] === null) return false;
  const env = envOf(args);
  return env === undefined || riskyNames(env).length > 0;
}
