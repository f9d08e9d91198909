// The skills block of the system prompt: one line telling the model how to use a skill, then one line per ready,
// model-invocable skill (`- name: description`), in name order, kept within the prompt budget as the kernel counts
// it (estimateTokens). Past the budget, descriptions are cut (all to the same length, at least MIN_DESCRIPTION
// characters, at a word where one is near); if even that does not fit, the skills that fit are listed with cut
// descriptions and a last line says how many more are not listed.
import { MAX_PROMPT_BLOCK_CHARS } from '../../protocol/prompt';
import { estimateTokens } from '../../protocol/tokens';

export const BLOCK_HEADER =
  'Skills: instructions the owner installed for particular tasks. When a request matches one, first call ' +
  'skill_read {"name": "<skill>"} to read it, then follow it with your tools (every command goes through exec and its approvals).';

/** Descriptions are never cut shorter than this, in characters. */
export const MIN_DESCRIPTION = 40;

export interface BlockSkill {
  name: string;
  description: string;
}

export interface PromptBlock {
  /** The block; empty when no skill is offered (which removes it). */
  text: string;
  tokens: number;
  /** Skills listed, of those given. */
  listed: number;
  /** Whether descriptions were cut to fit. */
  cut: boolean;
}

/** Builds the block for `skills` (any order) within `budget` tokens. */
export function buildPromptBlock(skills: readonly BlockSkill[], budget: number): PromptBlock {
  if (skills.length === 0) return { text: '', tokens: 0, listed: 0, cut: false };
  const sorted = [...skills]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((skill) => ({ name: skill.name, description: oneLine(skill.description) }));
  const full = render(sorted, Infinity);
  if (fits(full, budget)) return block(full, sorted.length, false);
  const longest = Math.max(...sorted.map((skill) => skill.description.length));
  let low = MIN_DESCRIPTION;
  let high = longest;
  if (fits(render(sorted, low), budget)) {
    // The longest cut that still fits, by bisection over the description length.
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (fits(render(sorted, middle), budget)) low = middle;
      else high = middle - 1;
    }
    return block(render(sorted, low), sorted.length, true);
  }
  const listed = countListed(sorted, budget);
  return block(render(sorted.slice(0, listed), MIN_DESCRIPTION, sorted.length - listed), listed, true);
}

function render(skills: readonly BlockSkill[], cap: number, more = 0): string {
  const lines = [BLOCK_HEADER, ...skills.map((skill) => `- ${skill.name}: ${cutText(skill.description, cap)}`)];
  if (more > 0) lines.push(moreLine(more));
  return lines.join('\n');
}

/** How many skills fit before the line counting the rest, by bisection (one more never takes less room). */
function countListed(skills: readonly BlockSkill[], budget: number): number {
  const fitsWith = (count: number): boolean => fits(render(skills.slice(0, count), MIN_DESCRIPTION, skills.length - count), budget);
  let low = 0;
  let high = skills.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fitsWith(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
}

export function moreLine(count: number): string {
  return `(${count} more ready skill${count === 1 ? ' is' : 's are'} not listed: over the skills prompt budget, openclaw:prompt_budget)`;
}

function fits(text: string, budget: number): boolean {
  return text.length <= MAX_PROMPT_BLOCK_CHARS && estimateTokens(text) <= budget;
}

function block(text: string, listed: number, cut: boolean): PromptBlock {
  return { text, tokens: estimateTokens(text), listed, cut };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** `text` cut to `cap` characters (`…` included), at the last space of its second half if it has one. */
function cutText(text: string, cap: number): string {
  if (text.length <= cap) return text;
  const room = text.slice(0, cap - 1);
  const space = room.lastIndexOf(' ');
  return `${space > cap / 2 ? room.slice(0, space) : room}…`;
}
