import { InstallError } from './errors';
import type { ZipRecord } from './structure';

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

// An empty deflate stream is 2 bytes; a folder may carry that much and nothing more.
const EMPTY_DEFLATE_BYTES = 2;

/** Refuses anything but regular files and folders: links, devices, FIFOs, sockets, and folders with data. */
export function checkEntryTypes(records: readonly ZipRecord[]): void {
  for (const record of records) {
    const problem = entryTypeProblem(record);
    if (problem !== undefined) throw new InstallError('UNSUPPORTED_ENTRY', problem.rule, problem.problem, { entry: record.name });
  }
}

// The Unix mode sits in the high 16 bits of the external attributes. It is read whatever the "made by"
// host says, because some unzip tools honour it regardless; a zero type means "not given".
function entryTypeProblem(record: ZipRecord): { rule: string; problem: string } | undefined {
  const { central } = record;
  const mode = central.externalFileAttributes >>> 16;
  const type = mode & S_IFMT;
  if (type === S_IFLNK) return { rule: 'type.symlink', problem: `it is a symbolic link (mode 0${mode.toString(8)}); a link could point anywhere` };
  if (type !== 0 && type !== S_IFREG && type !== S_IFDIR) {
    return { rule: 'type.special', problem: `its mode 0${mode.toString(8)} makes it neither a file nor a folder (a device, FIFO, socket or nonsense)` };
  }
  if (type === S_IFDIR && !record.isDirectory) return { rule: 'type.mode-mismatch', problem: 'its mode says folder but its name does not end in "/"' };
  if (type === S_IFREG && record.isDirectory) return { rule: 'type.mode-mismatch', problem: 'its name ends in "/" but its mode says regular file' };
  const carriesData = central.uncompressedSize > 0 || central.compressedSize > (central.compressionMethod === 8 ? EMPTY_DEFLATE_BYTES : 0);
  if (record.isDirectory && carriesData) {
    return {
      rule: 'type.folder-with-data',
      problem: `it is a folder that carries ${central.compressedSize} bytes of data; unzip tools disagree whether it is a file`,
    };
  }
  return undefined;
}
