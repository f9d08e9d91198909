// The knowledge base (<data>/knowledge): documents chunked, indexed with minisearch, persisted, and
// kept up to date with the folder while homed runs.
export { KnowledgeBase, SNAPSHOT_FILE, STORE_FILE } from './knowledge-base';
export { SUPPORTED_EXTENSIONS } from './formats';
export { KNOWLEDGE_POLICY, knowledgePolicyOverride } from './types';
export type { KnowledgeChange, KnowledgeFile, KnowledgeHit, KnowledgeOptions, KnowledgePolicy, KnowledgeStats } from './types';
export { ROOTS_SETTING, readSourceFile, rootsOf } from './source-file';
