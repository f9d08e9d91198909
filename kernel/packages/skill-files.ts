// A skill package's other files for the trust scan: every script or document the skill could tell the agent to run
// is shown to the person before the install, not only SKILL.md. Text files are answered whole up to the caps; a
// binary file, or one past the caps, is named with the reason it was not read, so the report can say so.
import type { SkillPackageFiles, SkillUnscannedFile } from '../../protocol';
import { MAX_SKILL_BYTES } from './skill-text';
import type { ZipRecord } from './structure';

/** The most bytes of one file, and of all files together, read for the scan (the answer must fit one message). */
export const SKILL_SCAN_CAPS = { fileBytes: MAX_SKILL_BYTES, totalBytes: 2 * 1024 * 1024 } as const;

/** Files the kernel itself reads and checks: never scanned as skill text. */
const OWN_FILES = new Set(['plugin.json', 'skill.json', 'SKILL.md']);

/** The names of the files whose data the scan wants, in archive order, within the caps. */
export function chooseScanFiles(records: readonly ZipRecord[]): Set<string> {
  const chosen = new Set<string>();
  let total = 0;
  for (const record of records) {
    const size = record.central.uncompressedSize;
    if (record.isDirectory || OWN_FILES.has(record.name) || size > SKILL_SCAN_CAPS.fileBytes || total + size > SKILL_SCAN_CAPS.totalBytes) continue;
    chosen.add(record.name);
    total += size;
  }
  return chosen;
}

/** The chosen files as text, and every other file (the kernel's own aside) with why it was not read. */
export function describeScanFiles(records: readonly ZipRecord[], kept: ReadonlyMap<string, Buffer>): SkillPackageFiles {
  const files: { name: string; text: string }[] = [];
  const unscanned: SkillUnscannedFile[] = [];
  for (const record of records) {
    if (record.isDirectory || OWN_FILES.has(record.name)) continue;
    const data = kept.get(record.name);
    if (!data) {
      unscanned.push({
        file: record.name,
        reason: `${record.central.uncompressedSize} bytes, past what the scan reads (${SKILL_SCAN_CAPS.fileBytes} a file, ${SKILL_SCAN_CAPS.totalBytes} in all)`,
      });
      continue;
    }
    const text = decodeText(data);
    if (text === undefined) unscanned.push({ file: record.name, reason: 'not text (binary or not UTF-8)' });
    else files.push({ name: record.name, text });
  }
  return { files, unscanned };
}

function decodeText(data: Buffer): string | undefined {
  if (data.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return undefined;
  }
}
