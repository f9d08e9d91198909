// The before_toolcall guard: rules and policy decide, or the person is asked through the kernel; every decision is
// recorded. It fails closed: an error on the way denies the call, and so does the kernel when the guard does not answer.
import type { PluginContext, StageCall } from '../../plugin-host';
import { AskRequest, type AskResult, type DecisionBy, type StagePatch, type StageSnapshot } from '../../protocol';
import type { DecisionLog } from './decisions';
import { decide } from './decide';
import type { GuardedCall } from './match';
import { ALWAYS, CHOICES, CHOICES_WITHOUT_ALWAYS, questionFor, summarizeArgs, tooLongToAsk } from './question';
import { ownerCommandFor } from './owner-command';
import { alwaysRuleFor } from './rules';
import { readGuardSettings, type RuleWriter } from './settings';

/** What the guard works with. */
export interface GuardDeps {
  decisions: () => DecisionLog;
  rules: () => RuleWriter;
}

/** A decision made: what the stage gets and what the record keeps. */
interface Outcome {
  allow: boolean;
  by: DecisionBy;
  detail: string;
}

/** Builds the before_toolcall handler. */
export function createGuard(deps: GuardDeps) {
  return async (snapshot: StageSnapshot, ctx: PluginContext, stage: StageCall): Promise<StagePatch | null> => {
    const toolCall = snapshot.tool_call;
    if (!toolCall) return null;
    const call: GuardedCall = { name: toolCall.name, args: toolCall.args };
    let outcome: Outcome;
    try {
      outcome = await judge(call, snapshot.session, ctx, stage.signal, deps);
    } catch (error) {
      outcome = { allow: false, by: 'withdrawn', detail: `the guard could not decide (${(error as Error).message}); denied, failing closed` };
    }
    deps.decisions().record({
      session: snapshot.session,
      tool: call.name,
      args: summarizeArgs(call.args),
      decision: outcome.allow ? 'allow' : 'deny',
      by: outcome.by,
      detail: outcome.detail,
    });
    return outcome.allow ? null : { deny: true, deny_reason: outcome.detail };
  };
}

async function judge(call: GuardedCall, session: string, ctx: PluginContext, signal: AbortSignal, deps: GuardDeps): Promise<Outcome> {
  const settings = await readGuardSettings(ctx);
  for (const problem of settings.problems) ctx.log.warn(problem);
  const verdict = decide(call, settings.rules, settings.policy);
  if (verdict.by === 'rule') {
    const rule = verdict.rule;
    return { allow: verdict.action === 'allow', by: 'rule', detail: `${verdict.action === 'allow' ? 'allowed' : 'denied'} by rule ${rule.id}` };
  }
  if (verdict.action === 'allow') return { allow: true, by: 'policy', detail: `${call.name} is allowed by policy` };
  if (verdict.action === 'deny') return { allow: false, by: 'policy', detail: `the owner does not allow ${call.name} (approvals:policy); it was not run` };
  const question = questionFor(call);
  const tooLong = tooLongToAsk(question);
  if (tooLong) return { allow: false, by: 'withdrawn', detail: tooLong };
  const choices = question.coverable ? [...CHOICES] : [...CHOICES_WITHOUT_ALWAYS];
  // "always" adds a rule, which widens what runs unasked: only the owner's own client may give it.
  const spec = question.coverable ? alwaysRuleFor(call) : undefined;
  const command = spec ? ownerCommandFor(spec) : undefined;
  const owner = question.coverable ? { ownerChoices: [ALWAYS], ...(command === undefined ? {} : { ownerCommand: command }) } : {};
  const answer: AskResult = await ctx.kernel.call(AskRequest, { session, question: question.text, choices, timeoutMs: settings.timeoutMs, ...owner }, signal);
  return settleAnswer(call, answer, deps);
}

async function settleAnswer(call: GuardedCall, answer: AskResult, deps: GuardDeps): Promise<Outcome> {
  if (answer.by !== 'person') return { allow: false, by: answer.by, detail: `${answer.reason ?? 'nobody answered'}; denied` };
  const via = answer.via ? ` (through ${answer.via})` : '';
  if (answer.choice === 'yes') return { allow: true, by: 'person', detail: `the person answered yes${via}` };
  if (answer.choice === ALWAYS) {
    const spec = alwaysRuleFor(call);
    if (!spec) return { allow: true, by: 'person', detail: `the person answered always${via}; no rule covers this call, so it is asked again next time` };
    const rule = await deps.rules().add(spec, 'always');
    return { allow: true, by: 'person', detail: `the person answered always${via}; rule ${rule.id} added` };
  }
  return { allow: false, by: 'person', detail: `the person answered no${via}; it was not run` };
}
