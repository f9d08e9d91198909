import { InstallError } from './errors';
import { raiseAdvice, type InstallLimits } from './limits';
import { pathDepth } from './names';
import type { ZipRecord } from './structure';

/**
 * Refuses, from the declared sizes alone, what the limits forbid: depth, entry size, then the total. The
 * ratio is not judged here but on the real bytes as they stream (entry-data.ts): a declared size is what a
 * bomb lies about, and real bytes past the declared size are refused as CORRUPT at the first chunk.
 */
export function checkDeclaredLimits(records: readonly ZipRecord[], limits: InstallLimits): void {
  let total = 0;
  for (const record of records) {
    const depth = pathDepth(record.name);
    if (depth > limits.maxDepth) {
      throw limitError('limit.depth', `its path is ${depth} levels deep, over the limit of ${limits.maxDepth}`, raiseAdvice('maxDepth', depth), record);
    }
    const size = record.central.uncompressedSize;
    if (size > limits.maxEntryBytes) {
      throw limitError(
        'limit.entry-size',
        `it declares ${size} bytes, over the limit of ${limits.maxEntryBytes} per entry`,
        raiseAdvice('maxEntryBytes', size),
        record,
      );
    }
    total += size;
  }
  if (total > limits.maxTotalBytes) {
    throw limitError(
      'limit.total-size',
      `its entries declare ${total} bytes together, over the limit of ${limits.maxTotalBytes}`,
      raiseAdvice('maxTotalBytes', total),
    );
  }
}

function limitError(rule: string, problem: string, advice: string, record?: ZipRecord): InstallError {
  return new InstallError('LIMIT_EXCEEDED', rule, problem, record === undefined ? { advice } : { advice, entry: record.name });
}
