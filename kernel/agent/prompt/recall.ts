// What a prompt window may draw on besides the conversation: memories and knowledge chunks,
// each with where it came from so the answer can name it.

/** One item a search found. */
export interface RecalledItem {
  /** Memory id or knowledge chunk id. */
  id: string;
  text: string;
  /** Where it came from, as a person reads it (a file and heading, a session and turn). */
  source: string;
  /** The search's own score (higher is more relevant; scales differ between sources). */
  score: number;
}

/** Searches a prompt window draws on; either may be missing (a kernel without memory, say). */
export interface RecallSources {
  searchMemory?(query: string, limit: number): RecalledItem[];
  searchKnowledge?(query: string, limit: number): RecalledItem[];
}

/** Keeps hits whose score is at least `fraction` of the best one and at least `floor`. */
export function keepRelevant(hits: RecalledItem[], fraction: number, floor: number): RecalledItem[] {
  const best = hits.reduce((max, hit) => Math.max(max, hit.score), 0);
  return hits.filter((hit) => hit.score >= floor && hit.score >= best * fraction);
}

/** The system message that hands memories to the model. */
export function renderMemories(items: RecalledItem[]): string {
  const lines = items.map((item) => `- ${item.text} (memory ${item.id}; ${item.source})`);
  return `[memory] What you remember that may bear on this (most relevant first; newer facts win over older ones):\n${lines.join('\n')}`;
}

/** The system message that hands one knowledge chunk to the model, with its source to cite. */
export function renderKnowledge(item: RecalledItem): string {
  return `[knowledge] From ${item.source} — when you use it, name this source in your answer:\n${item.text}`;
}
