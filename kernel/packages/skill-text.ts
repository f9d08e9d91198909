// A skill package's SKILL.md as text: what `plugins/install` answers (for `skills/preview`) and what the openclaw
// plugin reads. It is refused when it is too big to show a person, or not UTF-8.
import { InstallError } from './errors';

/** The most bytes a skill package's SKILL.md may hold. */
export const MAX_SKILL_BYTES = 256 * 1024;

const ADVICE = 'keep SKILL.md to the instructions and move long material into other files of the package, then rebuild it with scripts/hmap-pack';

/** Decodes SKILL.md (a BOM, if any, is kept: the skill parser strips it as OpenClaw does). */
export function readSkillText(bytes: Buffer, entry = 'SKILL.md'): string {
  if (bytes.length > MAX_SKILL_BYTES) {
    throw new InstallError(
      'INVALID_PACKAGE',
      'package.skill-size',
      `${entry} is ${bytes.length} bytes; a skill's SKILL.md may hold at most ${MAX_SKILL_BYTES} (256 KiB)`,
      { entry, stage: 'package', advice: ADVICE },
    );
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new InstallError('INVALID_PACKAGE', 'package.skill-utf8', `${entry} is not UTF-8 text`, {
      entry,
      stage: 'package',
      advice: 'save SKILL.md as UTF-8, then rebuild the package with scripts/hmap-pack',
    });
  }
}
