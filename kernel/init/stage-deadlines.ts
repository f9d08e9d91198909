import type { InitializeResult, StageName } from '../../protocol';
import type { StageHandlerRef } from '../stages/stage-host';

/** Gives each handler of a stage the deadline its plugin declared for it at its last handshake, if it declared one. */
export function withDeclaredDeadlines(
  stage: StageName,
  refs: StageHandlerRef[],
  declarationOf: (plugin: string) => InitializeResult | undefined,
): StageHandlerRef[] {
  return refs.map((ref) => {
    const declared = declarationOf(ref.plugin)?.stageTimeouts?.[stage];
    return typeof declared === 'number' ? { ...ref, timeoutMs: declared } : ref;
  });
}
