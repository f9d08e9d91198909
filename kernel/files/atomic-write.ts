// The kernel's all-or-nothing writes are the plugin SDK's (protocol/runtime/files.ts): one implementation, so homed
// and the plugins land files with the same modes, syncs and temporary names. The kernel reaches it here only.
export { isTemporaryName, removeStaleTemporaries, writeFileAtomic, writeFileAtomicSync, type AtomicWriteOptions } from '../../protocol/runtime/files';
