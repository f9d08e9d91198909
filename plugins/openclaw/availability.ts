// Why a skill cannot be used now, in the words the model (skill_read) and a person (`/name`) are given.
import { describeStatus } from './skills/gating';
import type { CatalogEntry } from './skills/catalog';
import { settingsKeyFor } from './skill-set';

/** Why `entry` cannot be used, or undefined when it is ready. */
export function whyNotReady(entry: CatalogEntry): string | undefined {
  const name = JSON.stringify(entry.name);
  const key = settingsKeyFor(entry);
  switch (entry.status.status) {
    case 'ready':
      return undefined;
    case 'disabled':
      return `the skill ${name} is disabled by the owner (openclaw:skills.${key}.enabled is false; homectl skills enable ${entry.name} turns it on)`;
    case 'blocked':
      return `the skill ${name} is not allowed for the agent (it is not in the openclaw:allow list)`;
    case 'missing':
      return `the skill ${name} cannot be used here: ${describeStatus(entry.status)}; homectl skills info ${entry.name} shows what it needs`;
    case 'error':
      return `the skill ${name} could not be read: ${entry.status.message}`;
  }
}

/** The skill in effect whose name is `word` (exactly, else ignoring case). */
export function findByName(skills: readonly CatalogEntry[], word: string): CatalogEntry | undefined {
  const lower = word.toLowerCase();
  return skills.find((entry) => entry.name === word) ?? skills.find((entry) => entry.name.toLowerCase() === lower);
}
