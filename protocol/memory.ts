import { RequestType } from 'vscode-jsonrpc';

export interface MemorySearchParams {
  /** Free-text query. */
  query: string;
  /** Most results to return. */
  limit?: number;
}
export interface MemoryHit {
  /** Memory id. */
  id: string;
  /** Fact or note text. */
  text: string;
  /** Where it came from. */
  source: string;
  /** Relevance score. */
  score: number;
}
/** plugin → kernel: search memory (needs `memory.read`). */
export namespace MemorySearchRequest {
  export const method = 'memory/search' as const;
  export const type = new RequestType<MemorySearchParams, { hits: MemoryHit[] }, void>(method);
}

export interface MemoryWriteParams {
  /** Text to remember. */
  text: string;
  /** Where it came from. */
  source?: string;
}
/** plugin → kernel: write a memory (needs `memory.write`). */
export namespace MemoryWriteRequest {
  export const method = 'memory/write' as const;
  export const type = new RequestType<MemoryWriteParams, { id: string }, void>(method);
}
