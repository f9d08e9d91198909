// The plugin's settings, read at each call (a change in Settings applies to the next call), and the one writer of
// `rules`, so two "always" answers at once both land.
import type { PluginContext } from '../../plugin-host';
import type { ApprovalRule } from '../../protocol';
import { parsePolicy, type ToolPolicy } from './policy';
import { makeRule, parseRules, RuleError, RULES_KEY, type RuleSpec } from './rules';

/** How long a question waits unless `timeout` says otherwise: 2 min. */
export const DEFAULT_TIMEOUT_MS = 120_000;
/** The longest `timeout` the setting allows (its ConfigDef's max). */
export const MAX_TIMEOUT_MS = 600_000;

/** What one guarded call reads. */
export interface GuardSettings {
  rules: ApprovalRule[];
  policy: Record<string, ToolPolicy>;
  timeoutMs: number;
  /** Entries of rules or policy that were left out, and why. */
  problems: string[];
}

/** The settings as they are now. */
export async function readGuardSettings(ctx: PluginContext): Promise<GuardSettings> {
  const [rules, policy, timeout] = await Promise.all([ctx.config.get(RULES_KEY), ctx.config.get('policy'), ctx.config.get('timeout')]);
  const parsedRules = parseRules(rules);
  const parsedPolicy = parsePolicy(policy);
  const timeoutMs = typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0 ? Math.min(timeout, MAX_TIMEOUT_MS) : DEFAULT_TIMEOUT_MS;
  return { rules: parsedRules.rules, policy: parsedPolicy.policy, timeoutMs, problems: [...parsedRules.problems, ...parsedPolicy.problems] };
}

/** Changes `rules` one change at a time. */
export class RuleWriter {
  private last: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ctx: PluginContext,
    private readonly now: () => number = Date.now,
  ) {}

  /** Adds a rule (kept entries of the setting stay as they are, even ones left out as malformed). */
  add(spec: RuleSpec, addedBy: string): Promise<ApprovalRule> {
    return this.serially(async () => {
      const rule = makeRule(spec, addedBy, this.now());
      const current = await this.ctx.config.get(RULES_KEY);
      await this.ctx.config.set(RULES_KEY, [...(Array.isArray(current) ? current : []), rule]);
      return rule;
    });
  }

  /** Removes the rule with this id; throws a RuleError naming the ids there are when none has it. */
  revoke(id: string): Promise<ApprovalRule> {
    return this.serially(async () => {
      const current = await this.ctx.config.get(RULES_KEY);
      const entries: unknown[] = Array.isArray(current) ? current : [];
      const index = entries.findIndex((entry) => (entry as { id?: unknown } | null)?.id === id);
      if (index < 0) {
        const ids = parseRules(entries).rules.map((rule) => rule.id);
        throw new RuleError(
          `there is no rule "${id}"; ${ids.length ? `the rules are ${ids.join(', ')}` : 'there are no rules'} (homectl approvals list shows them)`,
        );
      }
      await this.ctx.config.set(
        RULES_KEY,
        entries.filter((_entry, i) => i !== index),
      );
      return entries[index] as ApprovalRule;
    });
  }

  private serially<T>(step: () => Promise<T>): Promise<T> {
    const next = this.last.then(step, step);
    this.last = next.catch(() => undefined);
    return next;
  }
}
