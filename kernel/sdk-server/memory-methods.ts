import type { MessageConnection } from 'vscode-jsonrpc';
import {
  ErrorCodes,
  GraphQueryRequest,
  haError,
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
import type { PluginSupervisor } from '../supervisor/plugin-supervisor';
import { requirePermission } from './permissions';

const MAX_QUERY = 2000;
const MAX_TEXT = 1_000_000;

/** memory/*, graph/query and knowledge/*: each checks the caller's permission before anything else. */
export function bindMemoryMethods(connection: MessageConnection, caller: PluginSupervisor, recall: () => RecallService): void {
  connection.onRequest(MemorySearchRequest.type, (params) => {
    requirePermission(caller, MemorySearchRequest.method, 'memory.read');
    const query = text(params?.query, 'query', MemorySearchRequest.method, MAX_QUERY);
    return { hits: recall().memoryHits(query, limit(params?.limit, 10), params?.includeInvalid === true) };
  });
  connection.onRequest(MemoryWriteRequest.type, (params) => {
    requirePermission(caller, MemoryWriteRequest.method, 'memory.write');
    const body = text(params?.text, 'text', MemoryWriteRequest.method, 4000);
    const source = typeof params?.source === 'string' && params.source.trim() !== '' ? `${caller.name}: ${params.source.slice(0, 200)}` : caller.name;
    return { id: recall().memory.write(body, { source }).id };
  });
  connection.onRequest(MemoryForgetRequest.type, (params) => {
    requirePermission(caller, MemoryForgetRequest.method, 'memory.write');
    const id = text(params?.id, 'id', MemoryForgetRequest.method, 200);
    return { forgotten: recall().memory.forget(id, { source: caller.name }) };
  });
  connection.onRequest(GraphQueryRequest.type, (params) => {
    requirePermission(caller, GraphQueryRequest.method, 'memory.read');
    const entity = text(params?.entity, 'entity', GraphQueryRequest.method, 200);
    const hops = params?.hops === undefined ? undefined : limit(params.hops, 3, 6);
    return recall().graph({
      entity,
      ...(typeof params?.asOf === 'number' ? { asOf: params.asOf } : {}),
      ...(typeof params?.to === 'string' && params.to !== '' ? { to: params.to } : {}),
      ...(hops === undefined ? {} : { hops }),
    });
  });
  connection.onRequest(KnowledgeSearchRequest.type, (params) => {
    requirePermission(caller, KnowledgeSearchRequest.method, 'knowledge');
    return { hits: recall().knowledgeHits(text(params?.query, 'query', KnowledgeSearchRequest.method, MAX_QUERY), limit(params?.limit, 5)) };
  });
  connection.onRequest(KnowledgeAddRequest.type, async (params) => {
    requirePermission(caller, KnowledgeAddRequest.method, 'knowledge');
    const knowledge = recall().knowledge();
    const replace = params?.replace === true;
    if (typeof params?.path === 'string') {
      // Reading a path is reading the kernel's files: only an admin plugin (the cli, for a person) may name one.
      requirePermission(caller, `${KnowledgeAddRequest.method} with a path`, 'admin');
      return { file: await knowledge.add(params.path, { replace, ...(typeof params.name === 'string' ? { name: params.name } : {}) }) };
    }
    const name = text(params?.name, 'name', KnowledgeAddRequest.method, 255);
    return { file: await knowledge.addText(name, text(params?.text, 'text', KnowledgeAddRequest.method, MAX_TEXT), { replace }) };
  });
  connection.onRequest(KnowledgeRemoveRequest.type, async (params) => {
    requirePermission(caller, KnowledgeRemoveRequest.method, 'knowledge');
    return { removed: await recall().knowledge().remove(text(params?.file, 'file', KnowledgeRemoveRequest.method, 4096)) };
  });
  connection.onRequest(KnowledgeListRequest.type, () => {
    requirePermission(caller, KnowledgeListRequest.method, 'knowledge');
    return { files: recall().knowledge().list() };
  });
  connection.onRequest(KnowledgeReindexRequest.type, () => {
    requirePermission(caller, KnowledgeReindexRequest.method, 'knowledge');
    return recall().knowledge().reindex();
  });
}

function text(value: unknown, field: string, method: string, max: number): string {
  if (typeof value !== 'string' || value.trim() === '') throw haError(ErrorCodes.InvalidValue, `${method} needs "${field}", a non-empty string`, { method });
  if (value.length > max) throw haError(ErrorCodes.InvalidValue, `${method}: "${field}" is ${value.length} characters; the most is ${max}`, { method });
  return value;
}

function limit(value: unknown, fallback: number, max = 50): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    throw haError(ErrorCodes.InvalidValue, `limit must be a whole number from 1 to ${max}`);
  }
  return value;
}
