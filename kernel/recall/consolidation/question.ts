// The question the consolidation loop puts to the model about entities that may be one, and how
// its answer is read: only pairs it clearly calls the same are merged.
import type { DuplicatePair, EntityView } from '../../memory';

/** The question text for a list of ambiguous pairs, each entity shown with a few of its facts. */
export function buildQuestion(pairs: DuplicatePair[], describe: (name: string) => EntityView | undefined): string {
  const lines = pairs.map((pair, i) => `${i + 1}. ${render(pair.keep.name, describe)}  —vs—  ${render(pair.drop.name, describe)}`);
  return [
    '[memory consolidation] Some entities in your memory may be the same real-world person, place or thing under two names.',
    'For each numbered pair decide whether both name the same one. Say same only when the facts make it clear.',
    'Answer with JSON only: [{"pair": 1, "same": true}, {"pair": 2, "same": false}]',
    '',
    ...lines,
  ].join('\n');
}

/** Pair numbers (1-based) the answer calls the same; pairs it does not mention are undecided. */
export function readVerdicts(answer: string, count: number): Map<number, boolean> {
  const verdicts = new Map<number, boolean>();
  const start = answer.indexOf('[');
  const end = answer.lastIndexOf(']');
  if (start < 0 || end <= start) throw new Error(`the answer holds no JSON list: ${JSON.stringify(answer.slice(0, 200))}`);
  const list: unknown = JSON.parse(answer.slice(start, end + 1));
  if (!Array.isArray(list)) throw new Error('the answer is not a JSON list');
  for (const item of list) {
    const { pair, same } = (item ?? {}) as { pair?: unknown; same?: unknown };
    if (typeof pair === 'number' && Number.isInteger(pair) && pair >= 1 && pair <= count && typeof same === 'boolean') verdicts.set(pair, same);
  }
  return verdicts;
}

function render(name: string, describe: (name: string) => EntityView | undefined): string {
  const entity = describe(name);
  if (!entity) return `"${name}"`;
  const facts = entity.facts
    .filter((f) => f.validity === 'current')
    .slice(0, 5)
    .map((f) => f.text);
  const aliases = entity.aliases.length > 0 ? `, also called ${entity.aliases.join(', ')}` : '';
  return `"${entity.name}" (${entity.kind ?? 'unknown kind'}${aliases}${facts.length > 0 ? `; ${facts.join('; ')}` : ''})`;
}
