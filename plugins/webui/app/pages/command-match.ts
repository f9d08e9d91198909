// Which skills the Chat page's command menu offers for what is typed (kept apart from the page so it is tested alone).
import type { SkillSummary } from '../../../../protocol/skills';

/** The command being typed: the word after a leading `/`, or undefined once a space follows it (or no `/` leads). */
export function typedCommand(draft: string): string | undefined {
  const match = /^\/([^\s/]*)$/.exec(draft);
  return match ? (match[1] as string).toLowerCase() : undefined;
}

/** The skills offered for a typed prefix, name order. */
export function matchingCommands(skills: readonly SkillSummary[], prefix: string): SkillSummary[] {
  return skills
    .filter((skill) => skill.status === 'ready' && skill.userInvocable && skill.name.toLowerCase().startsWith(prefix))
    .sort((a, b) => a.name.localeCompare(b.name));
}
