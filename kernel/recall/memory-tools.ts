// memory_search, memory_write and knowledge_search: the agent's own way into its memory and the
// knowledge base (the relevant parts already enter each turn; these let it look further).
import { MAX_MEMORY_TEXT_CHARS, MAX_QUERY_CHARS, MAX_SEARCH_LIMIT } from '../../protocol';
import type { KernelTool } from '../agent/tool-router';
import type { RecallService } from './recall-service';
import { citeChunk } from './recall-service';

const QUERY = { type: 'string', minLength: 1, maxLength: MAX_QUERY_CHARS, description: 'What to look for, in any language.' } as const;
const LIMIT = { type: 'integer', minimum: 1, maximum: MAX_SEARCH_LIMIT, description: 'Most results (default 8).' } as const;

/** The three tools, bound to the kernel's memory and knowledge base. */
export function createMemoryTools(recall: RecallService): KernelTool[] {
  return [
    {
      spec: {
        name: 'memory_search',
        description: 'Search what you remember about the owner and the people, places and things in their life (facts and notes, with where each came from).',
        parameters: { type: 'object', required: ['query'], additionalProperties: false, properties: { query: QUERY, limit: LIMIT } },
      },
      run: async (args) => {
        const hits = recall.memoryHits(String(args['query']), typeof args['limit'] === 'number' ? args['limit'] : 8);
        if (hits.length === 0) return { hits: [], note: 'nothing remembered matches; say so rather than guess' };
        return { hits: hits.map((h) => ({ id: h.id, text: h.text, learned: new Date(h.learnedAt).toISOString().slice(0, 10), source: h.source })) };
      },
    },
    {
      spec: {
        name: 'memory_write',
        description: 'Remember something the owner asked you to remember, as one self-contained sentence.',
        parameters: {
          type: 'object',
          required: ['text'],
          additionalProperties: false,
          properties: { text: { type: 'string', minLength: 1, maxLength: MAX_MEMORY_TEXT_CHARS, description: 'The thing to remember, as one sentence.' } },
        },
      },
      run: async (args, ctx) => {
        const written = recall.memory.write(String(args['text']), { source: 'memory_write', session: ctx.session });
        return { remembered: String(args['text']), id: written.id };
      },
    },
    {
      spec: {
        name: 'knowledge_search',
        description: "Search the owner's documents (manuals, notes) in the knowledge base; each hit names its file and section so you can cite it.",
        parameters: { type: 'object', required: ['query'], additionalProperties: false, properties: { query: QUERY, limit: LIMIT } },
      },
      run: async (args) => {
        const hits = recall.knowledgeHits(String(args['query']), typeof args['limit'] === 'number' ? args['limit'] : 5);
        if (hits.length === 0) return { hits: [], note: 'no document in the knowledge base matches' };
        return { hits: hits.map((h) => ({ source: citeChunk(h), line: h.line, text: h.text })) };
      },
    },
  ];
}
