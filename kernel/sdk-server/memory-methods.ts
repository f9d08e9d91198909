import type { MessageConnection } from 'vscode-jsonrpc';
import {
  GraphQueryRequest,
  KnowledgeAddRequest,
  KnowledgeListRequest,
  KnowledgeReindexRequest,
  KnowledgeRemoveRequest,
  KnowledgeSearchRequest,
  MemoryForgetRequest,
  MemorySearchRequest,
  MemoryWriteRequest,
} from '../../protocol';
import type { RecallService } from '../recall/recall-service';
import { bindRequest, type SdkCaller } from './binder';

/** Hits a search returns when the call does not say how many. */
const DEFAULT_HITS = { memory: 10, knowledge: 5 } as const;

/**
 * memory/*, graph/query and knowledge/*: the binder checks each caller's permission before anything else.
 * `sourceFolders(plugin)` are the folders a knowledge/add path may come from besides the knowledge folder.
 */
export function bindMemoryMethods(
  connection: MessageConnection,
  caller: SdkCaller,
  recall: () => RecallService,
  sourceFolders: (plugin: string) => string[],
): void {
  bindRequest(connection, caller, MemorySearchRequest, (params) => ({
    hits: recall().memoryHits(params.query, params.limit ?? DEFAULT_HITS.memory, params.includeInvalid === true),
  }));
  bindRequest(connection, caller, MemoryWriteRequest, (params) => {
    const source = params.source !== undefined && params.source.trim() !== '' ? `${caller.name}: ${params.source}` : caller.name;
    return { id: recall().memory.write(params.text, { source }).id };
  });
  bindRequest(connection, caller, MemoryForgetRequest, (params) => ({ forgotten: recall().memory.forget(params.id, { source: caller.name }) }));
  bindRequest(connection, caller, GraphQueryRequest, (params) => recall().graph(params));
  bindRequest(connection, caller, KnowledgeSearchRequest, (params) => ({ hits: recall().knowledgeHits(params.query, params.limit ?? DEFAULT_HITS.knowledge) }));
  bindRequest(connection, caller, KnowledgeAddRequest, async (params) => {
    const knowledge = recall().knowledge();
    const replace = params.replace === true;
    // A path needs `admin` too (the descriptor says so): it reads a file of the kernel's machine, from the allowed folders only.
    if (params.path !== undefined) {
      return {
        file: await knowledge.add(params.path, { replace, from: sourceFolders(caller.name), ...(params.name === undefined ? {} : { name: params.name }) }),
      };
    }
    return { file: await knowledge.addText(params.name ?? '', params.text ?? '', { replace }) };
  });
  bindRequest(connection, caller, KnowledgeRemoveRequest, async (params) => ({ removed: await recall().knowledge().remove(params.file) }));
  bindRequest(connection, caller, KnowledgeListRequest, () => ({ files: recall().knowledge().list() }));
  bindRequest(connection, caller, KnowledgeReindexRequest, () => recall().knowledge().reindex());
}
