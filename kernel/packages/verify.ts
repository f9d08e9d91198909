import { Writable } from 'node:stream';
import type { ZipReader } from './archive';
import { pumpEntry, type DataTally } from './entry-data';
import type { InstallLimits } from './limits';
import type { ZipRecord } from './structure';

/** Reads every file of a checked package as extraction would, writing nothing; keeps the data of the files named in `keep`. */
export async function verifyData(
  zip: ZipReader,
  records: readonly ZipRecord[],
  limits: InstallLimits,
  keep: ReadonlySet<string>,
): Promise<Map<string, Buffer>> {
  const kept = new Map<string, Buffer>();
  const tally: DataTally = { total: 0 };
  for (const record of records) {
    if (record.isDirectory) continue;
    const chunks: Buffer[] = [];
    const collect = keep.has(record.name);
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (collect) chunks.push(chunk);
        done();
      },
    });
    await pumpEntry(zip, record, limits, tally, () => Promise.resolve(sink));
    if (collect) kept.set(record.name, Buffer.concat(chunks));
  }
  return kept;
}
