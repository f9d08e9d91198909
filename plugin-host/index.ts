// What plugin authors import.
export { definePlugin, MAX_MESSAGE_BYTES } from './sdk';
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
