import { checkAmbiguity } from './ambiguity';
import type { ZipReader } from './archive';
import { checkDuplicates, checkFilesAreNotFolders } from './collisions';
import { checkDeclaredLimits } from './declared-limits';
import { checkEntryTypes } from './entry-types';
import { InstallError } from './errors';
import type { InstallLimits } from './limits';
import { checkCompression, checkEncryption } from './methods';
import { nameProblem } from './names';
import { checkOverlap } from './overlap';
import { readStructure, type ZipRecord } from './structure';

/**
 * Checks the whole central directory and every local header before a byte is written, in the order of
 * SOURCE.md (container, structure, path, duplicate, entry type, encryption, compression, limits, overlap,
 * ambiguity), so that of two problems the earlier stage names the refusal. The container was checked by
 * ZipReader.open. Throws the first InstallError; answers the records in central directory order.
 */
export async function preflight(zip: ZipReader, limits: InstallLimits): Promise<ZipRecord[]> {
  const records = await readStructure(zip, limits);
  checkPaths(records, limits);
  checkDuplicates(records);
  checkEntryTypes(records);
  checkFilesAreNotFolders(records);
  checkEncryption(records);
  checkCompression(records);
  checkDeclaredLimits(records, limits);
  checkOverlap(records, zip.layout);
  checkAmbiguity(records, zip.layout);
  return records;
}

function checkPaths(records: readonly ZipRecord[], limits: InstallLimits): void {
  for (const record of records) {
    const problem = nameProblem(record.name, limits) ?? rawNameProblem(record);
    if (problem !== undefined) throw new InstallError('UNSAFE_PATH', problem.rule, problem.problem, { entry: record.name });
  }
}

// CP437 turns control bytes into printable glyphs (0x01 → ☺), so the header's own bytes are checked too.
function rawNameProblem(record: ZipRecord): { rule: string; problem: string } | undefined {
  if (!record.nameFromHeader) return undefined;
  if (record.central.fileNameRaw.some((byte) => byte < 0x20 || byte === 0x7f)) {
    return { rule: 'path.control', problem: 'its name contains a control byte' };
  }
  return undefined;
}
