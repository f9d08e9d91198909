import { RequestType } from 'vscode-jsonrpc';

export interface KnowledgeSearchParams {
  /** Query in any language. */
  query: string;
  /** Most results to return. */
  limit?: number;
}
export interface KnowledgeHit {
  /** File the chunk comes from, relative to the knowledge folder. */
  file: string;
  /** Chunk text. */
  text: string;
  /** Relevance score. */
  score: number;
}
/** plugin → kernel: search the knowledge base (needs `knowledge`). */
export namespace KnowledgeSearchRequest {
  export const method = 'knowledge/search' as const;
  export const type = new RequestType<KnowledgeSearchParams, { hits: KnowledgeHit[] }, void>(method);
}
