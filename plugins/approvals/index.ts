// The approvals plugin (built-in): the before_toolcall guard and the rules and record behind homectl approvals.
import * as path from 'node:path';
import { definePlugin, type PluginContext } from '../../plugin-host';
import { MAX_ASK_TIMEOUT_MS } from '../../protocol';
import { createApprovalsClientMethods } from './client-methods';
import { DecisionLog } from './decisions';
import { createGuard } from './guard';
import { RuleWriter } from './settings';

/** The guard's own stage deadline: the longest question, plus a margin to read settings and record the decision. */
const GUARD_DEADLINE_MS = MAX_ASK_TIMEOUT_MS + 30_000;

let decisions: DecisionLog | undefined;
let rules: RuleWriter | undefined;

function activate(ctx: PluginContext): void {
  decisions = new DecisionLog(path.join(ctx.paths.pluginData, 'decisions.db'));
  rules = new RuleWriter(ctx);
}

function deactivate(): void {
  decisions?.close();
  decisions = undefined;
}

const running = {
  decisions: (): DecisionLog => decisions ?? notActive(),
  rules: (): RuleWriter => rules ?? notActive(),
};

function notActive(): never {
  throw new Error('the approvals plugin is not active');
}

export default definePlugin({
  activate,
  deactivate,
  stages: { before_toolcall: createGuard(running) },
  stageTimeouts: { before_toolcall: GUARD_DEADLINE_MS },
  clientMethods: createApprovalsClientMethods(running.decisions, running.rules),
});
