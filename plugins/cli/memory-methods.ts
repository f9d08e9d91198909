// The socket's memory and knowledge rows: each maps one to one onto a kernel request, for
// `homectl memory …` and `homectl knowledge …`.
import type { KernelClient } from '../../plugin-host';
import {
  GraphQueryRequest,
  KnowledgeAddRequest,
  KnowledgeListRequest,
  KnowledgeReindexRequest,
  KnowledgeRemoveRequest,
  KnowledgeSearchRequest,
  MemoryForgetRequest,
  MemorySearchRequest,
  SocketMethods,
} from '../../protocol';
import { row, type MethodTable } from './methods';

const QUERY = { type: 'string', minLength: 1, maxLength: 2000 } as const;
const LIMIT = { type: 'integer', minimum: 1, maximum: 50 } as const;
const PATH = { type: 'string', minLength: 1, maxLength: 4096 } as const;
const noParams = { type: 'object', additionalProperties: false, properties: {} } as const;

/** Builds the memory and knowledge rows. */
export function createMemoryMethods(kernel: KernelClient): MethodTable {
  return {
    [SocketMethods.MemorySearch]: row<{ query: string; limit?: number; includeInvalid?: boolean }>(
      { type: 'object', required: ['query'], additionalProperties: false, properties: { query: QUERY, limit: LIMIT, includeInvalid: { type: 'boolean' } } },
      (p) => kernel.request(MemorySearchRequest.type, p),
    ),
    [SocketMethods.MemoryForget]: row<{ id: string }>(
      { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'string', minLength: 1, maxLength: 200 } } },
      (p) => kernel.request(MemoryForgetRequest.type, p),
    ),
    [SocketMethods.GraphQuery]: row<{ entity: string; asOf?: number; hops?: number; to?: string }>(
      {
        type: 'object',
        required: ['entity'],
        additionalProperties: false,
        properties: { entity: QUERY, asOf: { type: 'number' }, hops: { type: 'integer', minimum: 1, maximum: 6 }, to: QUERY },
      },
      (p) => kernel.request(GraphQueryRequest.type, p),
    ),
    [SocketMethods.KnowledgeList]: row(noParams, () => kernel.request(KnowledgeListRequest.type, {})),
    [SocketMethods.KnowledgeSearch]: row<{ query: string; limit?: number }>(
      { type: 'object', required: ['query'], additionalProperties: false, properties: { query: QUERY, limit: LIMIT } },
      (p) => kernel.request(KnowledgeSearchRequest.type, p),
    ),
    [SocketMethods.KnowledgeAdd]: row<{ path: string; name?: string; replace?: boolean }>(
      { type: 'object', required: ['path'], additionalProperties: false, properties: { path: PATH, name: PATH, replace: { type: 'boolean' } } },
      (p) => kernel.request(KnowledgeAddRequest.type, p),
    ),
    [SocketMethods.KnowledgeRemove]: row<{ file: string }>(
      { type: 'object', required: ['file'], additionalProperties: false, properties: { file: PATH } },
      (p) => kernel.request(KnowledgeRemoveRequest.type, p),
    ),
    [SocketMethods.KnowledgeReindex]: row(noParams, () => kernel.request(KnowledgeReindexRequest.type, {})),
  };
}
