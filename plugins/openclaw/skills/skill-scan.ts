// The trust scan of a whole skill: SKILL.md's body as Markdown, every other Markdown file the same way (skill_read
// hands them to the agent), and every other text file as a script, line by line: `bash {baseDir}/setup.sh` is only
// as safe as setup.sh. Only SKILL.md's ordinary commands are listed; other files add their flagged lines.
import type { SkillCommand, SkillUnscannedFile } from '../../../protocol/skills';
import { SKILL_FILE } from './discovery';
import { describeFlag, scanBody, scanScript, type ScannedCommand } from './trust-scan';

/** A file of the skill as text, by its path relative to the skill's folder. */
export interface SkillTextFile {
  name: string;
  text: string;
}

export interface SkillScan {
  commands: SkillCommand[];
  /** Flagged commands, plus the files that could not be scanned. */
  flagged: number;
  scanned: string[];
}

const MARKDOWN = /\.(?:md|markdown|mdx)$/i;
/** Pictures, sounds, fonts and documents: a file of these that is not text is expected, not a warning. */
const MEDIA = /\.(?:png|jpe?g|gif|webp|bmp|ico|icns|tiff?|avif|heic|mp3|wav|ogg|flac|m4a|mp4|webm|mov|woff2?|ttf|otf|eot|pdf)$/i;

/** Scans SKILL.md's body (starting at line `bodyLine`) and each other file; an unscanned file counts as flagged unless it is media. */
export function scanSkill(body: string, bodyLine: number, others: readonly SkillTextFile[], unscanned: readonly SkillUnscannedFile[]): SkillScan {
  const commands = scanBody(body, bodyLine).commands.map((command) => toWire(SKILL_FILE, command));
  const sorted = [...others].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const file of sorted) {
    const scan = MARKDOWN.test(file.name) ? scanBody(file.text, 1) : scanScript(file.text);
    commands.push(...scan.flagged.map((command) => toWire(file.name, command)));
  }
  const unexpected = unscanned.filter((file) => !(MEDIA.test(file.file) && file.reason.startsWith('not text')));
  const flagged = commands.filter((command) => command.flags.length > 0).length + unexpected.length;
  return { commands, flagged, scanned: [SKILL_FILE, ...sorted.map((file) => file.name)] };
}

function toWire(file: string, command: ScannedCommand): SkillCommand {
  return { file, line: command.line, text: command.text, where: command.where, flags: command.flags.map(describeFlag) };
}
