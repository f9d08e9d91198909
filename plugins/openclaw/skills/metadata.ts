// The `metadata` frontmatter value: JSON, else JSON5; its `openclaw` block (or the legacy `clawdbot` one), normalised.
import JSON5 from 'json5';
import { readInstallSpec } from './install-spec';
import { readString, readStringList } from './string-list';
import type { SkillMetadata, SkillRequires } from './types';

const BLOCK_KEYS = ['openclaw', 'clawdbot'] as const;

/** The metadata of a skill, or undefined when there is none to use; what was not usable goes to `warnings`. */
export function readMetadata(text: string | undefined, warnings: string[]): SkillMetadata | undefined {
  if (!text) return undefined;
  const parsed = parseObject(text);
  if (parsed === undefined) {
    warnings.push('metadata is neither JSON nor JSON5; it is ignored');
    return undefined;
  }
  for (const key of BLOCK_KEYS) {
    const block = parsed[key];
    if (block && typeof block === 'object' && !Array.isArray(block)) return readBlock(key, block as Record<string, unknown>, warnings);
  }
  return undefined;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    try {
      value = JSON5.parse(text);
    } catch {
      return undefined;
    }
  }
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function readBlock(key: SkillMetadata['key'], block: Record<string, unknown>, warnings: string[]): SkillMetadata {
  const metadata: SkillMetadata = { key, os: readStringList(block['os']), requires: readRequires(block['requires']), install: [] };
  if (typeof block['always'] === 'boolean') metadata.always = block['always'];
  const strings = { emoji: block['emoji'], homepage: block['homepage'], primaryEnv: block['primaryEnv'], skillKey: block['skillKey'] };
  for (const [field, value] of Object.entries(strings) as [keyof typeof strings, unknown][]) {
    const text = readString(value);
    if (text !== undefined) metadata[field] = text;
  }
  const install = Array.isArray(block['install']) ? (block['install'] as unknown[]) : [];
  install.forEach((entry, index) => {
    const result = readInstallSpec(entry);
    if (result.ok) metadata.install.push(result.spec);
    else warnings.push(`install[${index}] is dropped: ${result.reason}`);
  });
  return metadata;
}

function readRequires(value: unknown): SkillRequires {
  const raw = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  return {
    bins: readStringList(raw['bins']),
    anyBins: readStringList(raw['anyBins']),
    env: readStringList(raw['env']),
    config: readStringList(raw['config']),
  };
}
