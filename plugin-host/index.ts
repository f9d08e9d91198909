// What plugin authors import.
export { definePlugin } from './sdk';
export type {
  KernelClient,
  PluginConfig,
  PluginContext,
  PluginDefinition,
  PluginEvents,
  PluginLogger,
  StageHandler,
  ToolDefinition,
} from './sdk';
