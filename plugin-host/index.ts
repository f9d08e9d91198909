// What plugin authors import.
export { definePlugin, MAX_MESSAGE_BYTES, serve } from './sdk';
export { writeFileAtomic, writeFileAtomicSync, type AtomicWriteOptions, type WrittenFileId } from '../protocol/runtime/files';
export { reportSkillPackage } from './skill-package-report';
export { runWithDeadline, startDeadline, type Deadline, type DeadlineReasons } from './deadline';
export type {
  ClientMethodDefinition,
  KernelClient,
  PluginConfig,
  PluginContext,
  PluginDefinition,
  PluginEvents,
  PluginIO,
  PluginLogger,
  StageCall,
  StageHandler,
  ToolCall,
  ToolDefinition,
} from './sdk';
