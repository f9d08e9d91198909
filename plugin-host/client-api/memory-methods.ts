// The socket's memory and knowledge rows: each maps one to one onto a kernel request, for
// `homectl memory …` and `homectl knowledge …`.
import type { KernelClient } from '../sdk';
import {
  GraphQueryRequest,
  KnowledgeAddRequest,
  KnowledgeListRequest,
  KnowledgeReindexRequest,
  KnowledgeRemoveRequest,
  KnowledgeSearchRequest,
  MemoryForgetRequest,
  MemorySearchRequest,
  SocketApi,
} from '../../protocol';
import { methodTable, row, type MethodTable } from './methods';

/** Builds the memory and knowledge rows. */
export function createMemoryMethods(kernel: KernelClient): MethodTable {
  return methodTable(
    row(SocketApi.MemorySearch, (p) => kernel.call(MemorySearchRequest, p)),
    row(SocketApi.MemoryForget, (p) => kernel.call(MemoryForgetRequest, p)),
    row(SocketApi.GraphQuery, (p) => kernel.call(GraphQueryRequest, p)),
    row(SocketApi.KnowledgeList, () => kernel.call(KnowledgeListRequest, {})),
    row(SocketApi.KnowledgeSearch, (p) => kernel.call(KnowledgeSearchRequest, p)),
    row(SocketApi.KnowledgeAdd, (p) => kernel.call(KnowledgeAddRequest, p)),
    row(SocketApi.KnowledgeRemove, (p) => kernel.call(KnowledgeRemoveRequest, p)),
    row(SocketApi.KnowledgeReindex, () => kernel.call(KnowledgeReindexRequest, {})),
  );
}
