// Putting a file into the knowledge folder for add/addText: checked first (format, size), written
// atomically, never over a different file unless asked, then indexed at once.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ErrorCodes, haError } from '../../protocol';
import { formatBytes } from '../../protocol/format';
import { writeFileAtomic } from '../files/atomic-write';
import type { FileRow } from './chunk-store';
import { classifyFile } from './formats';
import type { FileOutcome, Indexer } from './indexer';
import type { KnowledgeFile, KnowledgePolicy } from './types';

/** Refuses, with a clear error, a file the knowledge base would not index. */
export function checkAddable(name: string, size: number, policy: KnowledgePolicy): void {
  const classified = classifyFile(name);
  if ('reason' in classified) throw haError(ErrorCodes.InvalidValue, `cannot add ${name} to the knowledge base: ${classified.reason}`, { file: name });
  if (size > policy.maxFileBytes) {
    throw haError(
      ErrorCodes.InvalidValue,
      `cannot add ${name}: it is ${formatBytes(size)}, over the ${formatBytes(policy.maxFileBytes)} limit for one knowledge file`,
      { file: name },
    );
  }
}

/** Writes `bytes` as `name` in `dir` (unless the same bytes are there) and indexes it; a different file is kept unless `replace`. */
export async function placeAndIndex(
  dir: string,
  indexer: Indexer,
  name: string,
  bytes: Buffer,
  replace: boolean,
): Promise<{ file: KnowledgeFile; outcome: FileOutcome }> {
  const target = path.join(dir, name);
  const existing = await fs.promises.readFile(target).catch(() => undefined);
  if (existing && !existing.equals(bytes) && !replace) {
    throw haError(ErrorCodes.Conflict, `the knowledge folder already has a different ${name}; remove it first or ask to replace it`, { file: name });
  }
  if (!existing?.equals(bytes)) {
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await writeFileAtomic(target, bytes);
  }
  const stat = await fs.promises.stat(target);
  const outcome = await indexer.indexFile({ file: name, abs: target, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino });
  const row = indexer.store.file(name);
  if (!row) throw haError(ErrorCodes.Conflict, `knowledge file ${name} vanished while it was being indexed`, { file: name });
  return { file: describeFile(row), outcome };
}

/** A store row as the API shows it. */
export function describeFile(row: FileRow): KnowledgeFile {
  const file: KnowledgeFile = { file: row.file, chunks: row.chunks, bytes: row.size, mtimeMs: row.mtimeMs, indexedAt: row.indexedAt };
  if (row.error !== null) file.error = row.error;
  return file;
}
