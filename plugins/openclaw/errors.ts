// The errors the skills client methods answer with, each saying what to do.
import { ErrorCodes, haError } from '../../protocol/errors';
import type { CatalogEntry } from './skills/catalog';
import type { SkillSet } from './skill-set';

export function noSkill(name: string): Error {
  return haError(ErrorCodes.NotFound, `no skill named ${JSON.stringify(name)}; homectl skills list shows them`, { plugin: 'openclaw' });
}

export function badValue(message: string): Error {
  return haError(ErrorCodes.InvalidValue, message, { plugin: 'openclaw' });
}

export function conflict(message: string): Error {
  return haError(ErrorCodes.Conflict, message, { plugin: 'openclaw' });
}

/** The skill in effect named exactly `name`. */
export function skillNamed(set: SkillSet, name: string): CatalogEntry {
  const entry = set.find(name);
  if (!entry) throw noSkill(name);
  return entry;
}
