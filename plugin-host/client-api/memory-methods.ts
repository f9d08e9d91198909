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
    row(SocketApi.MemorySearch, (p) => kernel.request(MemorySearchRequest.type, p)),
    row(SocketApi.MemoryForget, (p) => kernel.request(MemoryForgetRequest.type, p)),
    row(SocketApi.GraphQuery, (p) => kernel.request(GraphQueryRequest.type, p)),
    row(SocketApi.KnowledgeList, () => kernel.request(KnowledgeListRequest.type, {})),
    row(SocketApi.KnowledgeSearch, (p) => kernel.request(KnowledgeSearchRequest.type, p)),
    row(SocketApi.KnowledgeAdd, (p) => kernel.request(KnowledgeAddRequest.type, p)),
    row(SocketApi.KnowledgeRemove, (p) => kernel.request(KnowledgeRemoveRequest.type, p)),
    row(SocketApi.KnowledgeReindex, () => kernel.request(KnowledgeReindexRequest.type, {})),
  );
}
