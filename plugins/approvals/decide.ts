// The guard's decision before anyone is asked: a deny rule, a tool denied outright, an allow rule, else the policy.
import type { ApprovalRule } from '../../protocol';
import { ruleMatches, type GuardedCall } from './match';
import { policyOf, type ToolPolicy } from './policy';

/** What rules and policy make of a call. */
export type Verdict = { action: 'allow' | 'deny'; by: 'rule'; rule: ApprovalRule } | { action: ToolPolicy; by: 'policy' };

/** Deny rules first, then a tool the owner set to `deny`, then allow rules, then the tool's policy. */
export function decide(call: GuardedCall, rules: readonly ApprovalRule[], overrides: Readonly<Record<string, ToolPolicy>>): Verdict {
  const denying = rules.find((rule) => rule.action === 'deny' && ruleMatches(rule, call));
  if (denying) return { action: 'deny', by: 'rule', rule: denying };
  const policy = policyOf(call.name, overrides);
  if (policy === 'deny') return { action: 'deny', by: 'policy' };
  const allowing = rules.find((rule) => rule.action === 'allow' && ruleMatches(rule, call));
  if (allowing) return { action: 'allow', by: 'rule', rule: allowing };
  return { action: policy, by: 'policy' };
}
