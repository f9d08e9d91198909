import { RequestType } from 'vscode-jsonrpc';

export interface KnowledgeSearchParams {
  /** Query in any language. */
  query: string;
  /** Most results to return (default 5). */
  limit?: number;
}
export interface KnowledgeHit {
  /** File the chunk comes from, relative to the knowledge folder. */
  file: string;
  /** Nearest heading path of the chunk, '' when none. */
  heading: string;
  /** Chunk text. */
  text: string;
  /** Relevance score. */
  score: number;
  /** Stable chunk id. */
  chunk: string;
  /** First line of the chunk in its file (1-based). */
  line: number;
}
/** plugin → kernel: search the knowledge base (needs `knowledge`). */
export namespace KnowledgeSearchRequest {
  export const method = 'knowledge/search' as const;
  export const type = new RequestType<KnowledgeSearchParams, { hits: KnowledgeHit[] }, void>(method);
}

/** One indexed file of the knowledge base. */
export interface KnowledgeFile {
  /** Path relative to the knowledge folder. */
  file: string;
  /** Chunks indexed from it. */
  chunks: number;
  /** Its size. */
  bytes: number;
  /** Its modification time (ms since epoch). */
  mtimeMs: number;
  /** When it was indexed. */
  indexedAt: number;
  /** Why it could not be indexed, when it could not. */
  error?: string;
}

export interface KnowledgeAddParams {
  /** Absolute path of a file on this machine to copy in. */
  path?: string;
  /** Name to give it in the knowledge folder (with `text`, required). */
  name?: string;
  /** The document's text, instead of a path. */
  text?: string;
  /** Replace a different file already under that name (default: refuse). */
  replace?: boolean;
}
/** plugin → kernel: add a document to the knowledge folder and index it (needs `knowledge`). */
export namespace KnowledgeAddRequest {
  export const method = 'knowledge/add' as const;
  export const type = new RequestType<KnowledgeAddParams, { file: KnowledgeFile }, void>(method);
}

export interface KnowledgeRemoveParams {
  /** Path relative to the knowledge folder. */
  file: string;
}
/** plugin → kernel: delete a document from the knowledge folder and the index (needs `knowledge`). */
export namespace KnowledgeRemoveRequest {
  export const method = 'knowledge/remove' as const;
  export const type = new RequestType<KnowledgeRemoveParams, { removed: boolean }, void>(method);
}

/** plugin → kernel: the indexed files (needs `knowledge`). */
export namespace KnowledgeListRequest {
  export const method = 'knowledge/list' as const;
  export const type = new RequestType<Record<string, never>, { files: KnowledgeFile[] }, void>(method);
}

/** plugin → kernel: rebuild the index from the folder (needs `knowledge`). */
export namespace KnowledgeReindexRequest {
  export const method = 'knowledge/reindex' as const;
  export const type = new RequestType<Record<string, never>, { files: number; chunks: number; ms: number }, void>(method);
}
