// core.skills.path applies at once (the openclaw plugin follows config.changed): the folder a person names is
// created when it is set, and an unset puts the default `<data>/skills` back, as a start would.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CORE_SCOPE, type ConfigRegistry } from '../config';

const SKILLS_KEY = 'core.skills.path';

/** Keeps core.skills.path set to an existing folder while homed runs. */
export function followSkillsPath(config: ConfigRegistry, dataDir: string, warn: (msg: string) => void): void {
  config.onChange((change) => {
    if (change.scope !== CORE_SCOPE || change.key !== SKILLS_KEY) return;
    if (!change.entry.isSet) {
      config.set(CORE_SCOPE, SKILLS_KEY, path.join(path.resolve(dataDir), 'skills'));
      return;
    }
    const dir = config.getValue(CORE_SCOPE, SKILLS_KEY);
    if (typeof dir !== 'string') return;
    try {
      fs.mkdirSync(dir, { recursive: true });
    } catch (error) {
      warn(`core.skills.path is ${dir}, which cannot be created: ${(error as Error).message}; skills there are not found until it exists`);
    }
  });
}
