// approvals/list, approvals/allow and approvals/revoke (ApprovalsApi, protocol/approvals.ts): the rules and the
// record for clients (homectl approvals, the web page), through client/call. Allow and revoke are the owner's only:
// the descriptors say so and the kernel holds everyone else back.
import { serve, type ClientMethodDefinition } from '../../plugin-host';
import { ApprovalsApi, ErrorCodes, haError } from '../../protocol';
import type { DecisionLog } from './decisions';
import { RuleError } from './rules';
import { readGuardSettings, type RuleWriter } from './settings';

/** Decisions approvals/list returns unless asked for another number. */
const DEFAULT_LISTED = 50;

/** The client methods, over the record and the rule writer that exist once the plugin is active. */
export function createApprovalsClientMethods(decisions: () => DecisionLog, rules: () => RuleWriter): ClientMethodDefinition[] {
  return [
    serve(ApprovalsApi.List, async (params, ctx) => {
      const settings = await readGuardSettings(ctx);
      return { rules: settings.rules, decisions: decisions().newest(params.limit ?? DEFAULT_LISTED, params.session) };
    }),
    serve(ApprovalsApi.Allow, async (params) => {
      const { action = 'allow', ...spec } = params;
      return { rule: await asRefusal(rules().add({ ...spec, action }, 'homectl')) };
    }),
    serve(ApprovalsApi.Revoke, async (params) => ({ revoked: await asRefusal(rules().revoke(params.id)) })),
  ];
}

/** A RuleError reaches the client as an invalid value, with its words. */
async function asRefusal<T>(pending: Promise<T>): Promise<T> {
  try {
    return await pending;
  } catch (error) {
    if (error instanceof RuleError) throw haError(ErrorCodes.InvalidValue, error.message);
    throw error;
  }
}
