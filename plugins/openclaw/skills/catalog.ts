// The skills of a set of sources: found, read, parsed, resolved by name across sources, and gated.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { discoverSkills, type FoundSkill, type SkillSource, type WalkedDir } from './discovery';
import { stampOf, type SkillFileCache, type SkillFileRead } from './file-cache';
import { gateSkill, type GateContext, type SkillStatus } from './gating';
import { parseSkill } from './parse';
import type { SkillFile } from './types';
import { MAX_SKILL_BYTES } from '../../../protocol/skills';

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

/** What a load may be given besides its sources: a cache of parsed files, a list to fill with the folders walked. */
export interface LoadOptions {
  cache?: SkillFileCache;
  walked?: WalkedDir[];
}

/** Loads and gates every skill under `sources` (highest precedence first). */
export async function loadCatalog(sources: readonly SkillSource[], context: GateContext, options: LoadOptions = {}): Promise<Catalog> {
  const { cache } = options;
  const found = await discoverSkills(sources, options.walked);
  const read = await Promise.all(found.map((entry) => readEntry(entry, cache)));
  cache?.keepOnly(new Set(found.map((entry) => entry.file)));
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

type ReadEntry = { entry: Pick<CatalogEntry, 'name' | 'source' | 'dir' | 'file'> } & Partial<SkillFileRead>;

async function readEntry(found: FoundSkill, cache: SkillFileCache | undefined): Promise<ReadEntry> {
  const entry = { name: path.basename(found.dir), source: found.source.name, dir: found.dir, file: found.file };
  let stamp: string;
  try {
    const stat = await fs.promises.stat(found.file, { bigint: true });
    stamp = stampOf(stat);
    const kept = cache?.get(found.file, stamp);
    if (kept) return { entry, ...kept };
    if (stat.size > BigInt(MAX_SKILL_BYTES))
      return remember(cache, found.file, stamp, entry, { error: `SKILL.md is ${stat.size} bytes; the most read is ${MAX_SKILL_BYTES}` });
  } catch (error) {
    return { entry, error: `cannot read ${found.file}: ${(error as Error).message}` };
  }
  let text: string;
  try {
    text = await fs.promises.readFile(found.file, 'utf8');
  } catch (error) {
    return { entry, error: `cannot read ${found.file}: ${(error as Error).message}` };
  }
  const parsed = parseSkill(text, entry.name);
  return remember(cache, found.file, stamp, entry, parsed.ok ? { skill: parsed.skill } : { error: parsed.message });
}

function remember(cache: SkillFileCache | undefined, file: string, stamp: string, entry: ReadEntry['entry'], read: SkillFileRead): ReadEntry {
  cache?.set(file, stamp, read);
  return { entry, ...read };
}
