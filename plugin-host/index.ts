// What plugin authors import.
export { definePlugin } from './sdk';
export type {
  KernelClient,
  PluginConfig,
  PluginContext,
  PluginDefinition,
  PluginEvents,
  PluginIO,
  PluginLogger,
  StageHandler,
  ToolDefinition,
} from './sdk';
