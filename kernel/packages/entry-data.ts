import { Transform, type TransformCallback, type Writable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import type { ZipReader } from './archive';
import { InstallError } from './errors';
import { raiseAdvice, type InstallLimits } from './limits';
import type { ZipRecord } from './structure';

// Larger than zlib's 16 KiB default: fewer round trips through the thread pool and the stream machinery.
const INFLATE_CHUNK = 128 * 1024;
// Entries up to this size (and the ratio grace size) are read, inflated and written whole: most plugin files.
const WHOLE_ENTRY = 1024 * 1024;

const inflateRaw = promisify(zlib.inflateRaw);

/** Real bytes produced so far across the whole package. */
export interface DataTally {
  total: number;
}

/**
 * Writes one entry's data into `openSink()`, inflated here, counting the real bytes and computing the CRC:
 * bytes past the declared size or a limit never reach the sink, whatever the headers claimed (this is
 * yauzl's validateEntrySizes check, made before the sink). Pre-flight let through only methods 0 and 8.
 */
export async function pumpEntry(zip: ZipReader, record: ZipRecord, limits: InstallLimits, tally: DataTally, openSink: () => Promise<Writable>): Promise<void> {
  const declared = record.central.uncompressedSize;
  if (declared <= WHOLE_ENTRY && declared <= limits.ratioGraceBytes) return writeWhole(zip, record, limits, tally, openSink);
  // The sink first: a stream from yauzl starts reading as soon as it exists, so nothing may be awaited
  // between getting it and piping it (an error it raised in between would have no listener).
  const sink = await openSink();
  const source = await zip.openRawData(record.central, record.local).catch((error: Error) => {
    sink.destroy();
    throw dataError(record, 'data.read', `its data cannot be read: ${error.message}`);
  });
  const guard = new ByteGuard(record, limits, tally);
  try {
    if (record.central.compressionMethod === 8) await pipeline(source, zlib.createInflateRaw({ chunkSize: INFLATE_CHUNK }), guard, sink);
    else await pipeline(source, guard, sink);
  } catch (error) {
    throw classify(record, error);
  }
}

// One read, one inflate capped at the declared size (a bomb stops there), one write.
async function writeWhole(zip: ZipReader, record: ZipRecord, limits: InstallLimits, tally: DataTally, openSink: () => Promise<Writable>): Promise<void> {
  const { compressedSize, uncompressedSize, compressionMethod } = record.central;
  const raw = await zip.read(compressedSize, record.local.fileDataStart);
  if (raw.length < compressedSize) throw dataError(record, 'data.read', `its data is cut short at ${raw.length} of ${compressedSize} bytes`);
  let data = raw;
  if (compressionMethod === 8) {
    data = await inflateRaw(raw, { maxOutputLength: Math.max(uncompressedSize, 1) }).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
        throw dataError(record, 'data.size', `its data runs past the ${uncompressedSize} bytes declared`);
      throw classify(record, error);
    });
  }
  const problem = overrun(record, limits, tally, 0, data.length) ?? mismatch(record, data.length, zlib.crc32(data));
  if (problem !== undefined) throw problem;
  tally.total += data.length;
  const sink = await openSink();
  sink.end(data);
  await finished(sink);
}

class ByteGuard extends Transform {
  private count = 0;
  private crc = 0;

  constructor(
    private readonly record: ZipRecord,
    private readonly limits: InstallLimits,
    private readonly tally: DataTally,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const problem = overrun(this.record, this.limits, this.tally, this.count, chunk.length);
    if (problem !== undefined) return done(problem);
    this.count += chunk.length;
    this.tally.total += chunk.length;
    this.crc = zlib.crc32(chunk, this.crc);
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    done(mismatch(this.record, this.count, this.crc));
  }
}

/** What `more` bytes after `count` of this entry would break: its declared size, or a limit. */
function overrun(record: ZipRecord, limits: InstallLimits, tally: DataTally, count: number, more: number): InstallError | undefined {
  const next = count + more;
  const declared = record.central.uncompressedSize;
  if (next > declared) return dataError(record, 'data.size', `its data runs past the ${declared} bytes declared`);
  if (next > limits.maxEntryBytes)
    return limitError(record, 'limit.entry-size', `its data passes ${limits.maxEntryBytes} bytes`, raiseAdvice('maxEntryBytes', next));
  const total = tally.total + more;
  if (total > limits.maxTotalBytes)
    return limitError(record, 'limit.total-size', `the package's data passes ${limits.maxTotalBytes} bytes`, raiseAdvice('maxTotalBytes', total));
  // The ratio is judged on real bytes: the declared size is what a bomb lies about.
  const packed = record.central.compressedSize;
  if (next > limits.ratioGraceBytes && next > limits.maxRatio * packed) {
    const ratio = packed === 0 ? 'from nothing' : `${Math.round(next / packed)}:1 already`;
    const problem = `its ${packed} compressed bytes inflate past ${next} (${ratio}), over the limit of ${limits.maxRatio}:1 for entries past ${limits.ratioGraceBytes} bytes`;
    // Real bytes never pass the declared size, so the declared ratio is the most this entry can need.
    return limitError(record, 'limit.ratio', problem, raiseAdvice('maxRatio', declared / Math.max(packed, 1)));
  }
  return undefined;
}

/** Whether the complete data has the declared size and CRC. */
function mismatch(record: ZipRecord, count: number, crc: number): InstallError | undefined {
  const { uncompressedSize, crc32: expected } = record.central;
  if (count !== uncompressedSize) return dataError(record, 'data.size', `its data is ${count} bytes, not the ${uncompressedSize} declared`);
  if (crc !== expected) return dataError(record, 'data.crc', `its data has CRC-32 ${hex(crc)}, not the ${hex(expected)} declared`);
  return undefined;
}

// zlib reports broken deflate streams; a file system error is not the archive's fault and passes through.
function classify(record: ZipRecord, error: unknown): unknown {
  if (error instanceof InstallError) return error;
  const err = error as NodeJS.ErrnoException;
  if (typeof err.syscall === 'string') return error;
  const message = err.message ?? String(error);
  if (typeof err.code === 'string' && err.code.startsWith('Z_')) return dataError(record, 'data.inflate', `its deflate data is broken: ${message}`);
  return dataError(record, 'data.read', `its data cannot be read: ${message}`);
}

function dataError(record: ZipRecord, rule: string, problem: string): InstallError {
  return new InstallError('CORRUPT', rule, problem, { entry: record.name, stage: 'data' });
}

function limitError(record: ZipRecord, rule: string, problem: string, advice: string): InstallError {
  return new InstallError('LIMIT_EXCEEDED', rule, problem, { entry: record.name, stage: 'data', advice });
}

function hex(value: number): string {
  return `0x${value.toString(16).padStart(8, '0')}`;
}
