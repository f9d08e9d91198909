// The exec plugin's definition: one tool, `exec`; see exec-tool.ts.
import type { PluginDefinition, ToolDefinition } from '../../plugin-host';
import { createExecState, createExecTool, type ExecState } from './exec-tool';
import { EXEC_POLICY, type ExecPolicy } from './policy';

/** Builds the plugin; tests may give their own policy. */
export function createExecPlugin(policy: ExecPolicy = EXEC_POLICY): PluginDefinition {
  let state: ExecState | undefined;
  const active = (): ExecState => {
    if (!state) throw new Error('the exec plugin is not active');
    return state;
  };
  return {
    activate: (ctx) => {
      state = createExecState(ctx.paths.data);
    },
    deactivate: () => {
      state?.close();
      state = undefined;
    },
    tools: { exec: createExecTool(active, policy) } as Record<string, ToolDefinition<never>>,
  };
}
