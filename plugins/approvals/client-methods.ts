// approvals/list, approvals/allow and approvals/revoke: the rules and the record for clients (homectl approvals,
// the web page), through client/call.
import type { ClientMethodDefinition, PluginContext } from '../../plugin-host';
import {
  ApprovalsMethods,
  ErrorCodes,
  haError,
  type ApprovalsAllowParams,
  type ApprovalsAllowResult,
  type ApprovalsListParams,
  type ApprovalsListResult,
  type ApprovalsRevokeParams,
  type ApprovalsRevokeResult,
} from '../../protocol';
import type { DecisionLog } from './decisions';
import { RuleError } from './rules';
import { readGuardSettings, type RuleWriter } from './settings';

/** Decisions approvals/list returns unless asked for another number. */
const DEFAULT_LISTED = 50;
const TEXT = { type: 'string', minLength: 1, maxLength: 1000 } as const;

/** The client methods by wire name, over the record and the rule writer that exist once the plugin is active. */
export function createApprovalsClientMethods(decisions: () => DecisionLog, rules: () => RuleWriter): Record<string, ClientMethodDefinition<never>> {
  const list: ClientMethodDefinition<ApprovalsListParams> = {
    params: {
      type: 'object',
      additionalProperties: false,
      properties: { session: { type: 'string', minLength: 1, maxLength: 200 }, limit: { type: 'integer', minimum: 1, maximum: 10_000 } },
    },
    run: async (params: ApprovalsListParams, ctx: PluginContext): Promise<ApprovalsListResult> => {
      const settings = await readGuardSettings(ctx);
      return { rules: settings.rules, decisions: decisions().newest(params.limit ?? DEFAULT_LISTED, params.session) };
    },
  };
  // A rule widens or narrows what runs unasked, like the `rules` setting it writes: only the owner's own client (homectl) may.
  const allow: ClientMethodDefinition<ApprovalsAllowParams> = {
    owner: true,
    params: {
      type: 'object',
      required: ['tool'],
      additionalProperties: false,
      properties: {
        tool: { type: 'string', minLength: 1, maxLength: 100 },
        prefix: TEXT,
        command: TEXT,
        glob: TEXT,
        path: TEXT,
        cwd: { type: 'string', minLength: 1, maxLength: 4096 },
        env: { type: 'object', maxProperties: 100, additionalProperties: { type: 'string', maxLength: 10_000 } },
        action: { enum: ['allow', 'deny'] },
      },
    },
    run: async (params: ApprovalsAllowParams): Promise<ApprovalsAllowResult> => {
      const { action = 'allow', ...spec } = params;
      return { rule: await asRefusal(rules().add({ ...spec, action }, 'homectl')) };
    },
  };
  const revoke: ClientMethodDefinition<ApprovalsRevokeParams> = {
    owner: true,
    params: { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'string', minLength: 1, maxLength: 64 } } },
    run: async (params: ApprovalsRevokeParams): Promise<ApprovalsRevokeResult> => ({ revoked: await asRefusal(rules().revoke(params.id)) }),
  };
  return { [ApprovalsMethods.List]: list, [ApprovalsMethods.Allow]: allow, [ApprovalsMethods.Revoke]: revoke } as Record<string, ClientMethodDefinition<never>>;
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
