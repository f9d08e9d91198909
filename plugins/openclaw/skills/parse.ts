// A SKILL.md read as OpenClaw 2026.9.6 reads it: delimited, its frontmatter keys read, its metadata normalised.
import { splitFrontmatter } from './frontmatter';
import { readMetadata } from './metadata';
import type { SkillFile, SkillParseResult } from './types';
import { readFrontmatterKeys } from './yaml-keys';

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off']);

/** Parses a SKILL.md's text; `folderName` is the name of the folder holding it (the name when none is given). */
export function parseSkill(text: string, folderName: string): SkillParseResult {
  const split = splitFrontmatter(text);
  if (!split.ok) return reject(split.code, split.message);
  const read = readFrontmatterKeys(split.block);
  if (!read.ok) return reject(read.code, read.message);
  const keys = read.keys;
  const description = keys['description'] ?? '';
  if (!description) {
    const where = split.hasFrontmatter ? 'the frontmatter has no description' : 'the file has no frontmatter (a block between "---" lines)';
    return reject('MISSING_DESCRIPTION', `${where}; a skill needs "description: what it does and when to use it"`);
  }
  const warnings: string[] = [];
  const skill: SkillFile = {
    name: keys['name'] || folderName,
    description,
    userInvocable: readBool(keys['user-invocable'], true),
    disableModelInvocation: readBool(keys['disable-model-invocation'], false),
    frontmatter: keys,
    body: split.body,
    bodyLine: split.bodyLine,
    warnings,
  };
  copyOptional(keys, skill);
  const metadata = readMetadata(keys['metadata'], warnings);
  if (metadata) skill.metadata = metadata;
  return { ok: true, skill };
}

/** The rejection as OpenClaw words it. */
function reject(code: string, message: string): SkillParseResult {
  return { ok: false, code, message: `invalid frontmatter: ${code}: ${message}` };
}

function copyOptional(keys: Record<string, string>, skill: SkillFile): void {
  const fields = [
    ['homepage', 'homepage'],
    ['command-dispatch', 'commandDispatch'],
    ['command-tool', 'commandTool'],
    ['command-arg-mode', 'commandArgMode'],
    ['license', 'license'],
    ['allowed-tools', 'allowedTools'],
  ] as const;
  for (const [key, field] of fields) {
    const value = keys[key];
    if (value) skill[field] = value;
  }
}

/** OpenClaw's boolean words; anything else keeps the default. */
function readBool(value: string | undefined, fallback: boolean): boolean {
  const word = (value ?? '').trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return fallback;
}
