// The skills of a set of sources: found, read, parsed, resolved by name across sources, and gated.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { discoverSkills, type FoundSkill, type SkillSource } from './discovery';
import { gateSkill, type GateContext, type SkillStatus } from './gating';
import { parseSkill } from './parse';
import type { SkillFile } from './types';

/** A SKILL.md larger than this is refused unread (OpenClaw's skills are a few kB). */
export const MAX_SKILL_BYTES = 256 * 1024;

/** One SKILL.md of the catalog. */
export interface CatalogEntry {
  /** The skill's name, or its folder's name when it could not be parsed. */
  name: string;
  source: string;
  dir: string;
  file: string;
  /** Absent when the file could not be parsed (then `status` is an error). */
  skill?: SkillFile;
  status: SkillStatus;
  /** The file of the higher-precedence skill of the same name that hides this one. */
  shadowedBy?: string;
}

/** The skills in effect (one per name) and those hidden by a higher-precedence one of the same name. */
export interface Catalog {
  skills: CatalogEntry[];
  shadowed: CatalogEntry[];
}

/** Loads and gates every skill under `sources` (highest precedence first). */
export async function loadCatalog(sources: readonly SkillSource[], context: GateContext): Promise<Catalog> {
  const found = await discoverSkills(sources);
  const read = await Promise.all(found.map((entry) => readEntry(entry)));
  const gate: GateContext = { ...context, binCache: context.binCache ?? new Map() };
  const winners = new Map<string, CatalogEntry>();
  const catalog: Catalog = { skills: [], shadowed: [] };
  for (const { entry, skill, error } of read) {
    if (!skill) {
      catalog.skills.push({ ...entry, status: { status: 'error', message: error ?? 'unreadable' } });
      continue;
    }
    const gated: CatalogEntry = { ...entry, name: skill.name, skill, status: gateSkill(skill, gate) };
    const winner = winners.get(skill.name);
    if (winner) {
      catalog.shadowed.push({ ...gated, shadowedBy: winner.file });
      continue;
    }
    winners.set(skill.name, gated);
    catalog.skills.push(gated);
  }
  return catalog;
}

type ReadEntry = { entry: Pick<CatalogEntry, 'name' | 'source' | 'dir' | 'file'>; skill?: SkillFile; error?: string };

async function readEntry(found: FoundSkill): Promise<ReadEntry> {
  const entry = { name: path.basename(found.dir), source: found.source.name, dir: found.dir, file: found.file };
  let text: string;
  try {
    const handle = await fs.promises.open(found.file, 'r');
    try {
      const size = (await handle.stat()).size;
      if (size > MAX_SKILL_BYTES) return { entry, error: `SKILL.md is ${size} bytes; the most read is ${MAX_SKILL_BYTES}` };
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    return { entry, error: `cannot read ${found.file}: ${(error as Error).message}` };
  }
  const parsed = parseSkill(text, entry.name);
  return parsed.ok ? { entry, skill: parsed.skill } : { entry, error: parsed.message };
}
