import { NO_PARAMS, objectSchema, request } from './descriptor';
import { BOOLEAN_FIELD, PATH_FIELD, QUERY_FIELD, SEARCH_LIMIT_FIELD, textField } from './fields';
import { MAX_KNOWLEDGE_NAME_CHARS, MAX_KNOWLEDGE_TEXT_CHARS, MAX_PATH_CHARS } from './limits';

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
export const KnowledgeSearchRequest = request<KnowledgeSearchParams, { hits: KnowledgeHit[] }>('knowledge/search', {
  params: objectSchema({ query: QUERY_FIELD, limit: SEARCH_LIMIT_FIELD }, ['query']),
  permission: 'knowledge',
});

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
/** knowledge/add's fields, which the socket's knowledge/add (a path only) composes too. */
export const KNOWLEDGE_ADD_FIELDS = {
  path: PATH_FIELD,
  name: textField(MAX_KNOWLEDGE_NAME_CHARS),
  text: textField(MAX_KNOWLEDGE_TEXT_CHARS),
  replace: BOOLEAN_FIELD,
} as const;
/**
 * plugin → kernel: add a document to the knowledge folder and index it (needs `knowledge`). A path is a file
 * of the kernel's machine: only an admin plugin (the cli, for a person) may name one.
 */
export const KnowledgeAddRequest = request<KnowledgeAddParams, { file: KnowledgeFile }>('knowledge/add', {
  params: {
    ...objectSchema(KNOWLEDGE_ADD_FIELDS),
    anyOf: [
      { properties: { path: KNOWLEDGE_ADD_FIELDS.path }, required: ['path'] },
      { properties: { name: KNOWLEDGE_ADD_FIELDS.name, text: KNOWLEDGE_ADD_FIELDS.text }, required: ['name', 'text'] },
    ],
  },
  permission: 'knowledge',
  paramPermission: (p) => (p.path === undefined ? undefined : { anyOf: ['admin'], what: 'knowledge/add with a path' }),
});

export interface KnowledgeRemoveParams {
  /** Path relative to the knowledge folder. */
  file: string;
}
/** plugin → kernel: delete a document from the knowledge folder and the index (needs `knowledge`). */
export const KnowledgeRemoveRequest = request<KnowledgeRemoveParams, { removed: boolean }>('knowledge/remove', {
  params: objectSchema({ file: textField(MAX_PATH_CHARS) }, ['file']),
  permission: 'knowledge',
});

/** plugin → kernel: the indexed files (needs `knowledge`). */
export const KnowledgeListRequest = request<Record<string, never>, { files: KnowledgeFile[] }>('knowledge/list', {
  params: NO_PARAMS,
  permission: 'knowledge',
});

/** plugin → kernel: rebuild the index from the folder (needs `knowledge`). */
export const KnowledgeReindexRequest = request<Record<string, never>, { files: number; chunks: number; ms: number }>('knowledge/reindex', {
  params: NO_PARAMS,
  permission: 'knowledge',
});
