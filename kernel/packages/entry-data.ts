import { Transform, type TransformCallback, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ZipReader } from './archive';
import { crc32 } from './crc32';
import { InstallError } from './errors';
import { raiseAdvice, type InstallLimits } from './limits';
import type { ZipRecord } from './structure';

/** Real bytes produced so far across the whole package. */
export interface DataTally {
  total: number;
}

/**
 * Streams one entry's data into `openSink()`, counting the real bytes and computing the CRC as they pass:
 * a chunk that would go past the declared size or a limit is never handed on, whatever the headers claimed.
 */
export async function pumpEntry(zip: ZipReader, record: ZipRecord, limits: InstallLimits, tally: DataTally, openSink: () => Promise<Writable>): Promise<void> {
  const source = await zip.openData(record.central).catch((error: Error) => {
    throw dataError(record, 'data.read', `its data cannot be read: ${error.message}`);
  });
  const guard = new ByteGuard(record, limits, tally);
  let sink: Writable;
  try {
    sink = await openSink();
  } catch (error) {
    source.destroy();
    throw error;
  }
  try {
    await pipeline(source, guard, sink);
  } catch (error) {
    throw classify(record, error);
  }
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
    const count = this.count + chunk.length;
    const problem = this.overrun(count);
    if (problem !== undefined) return done(problem);
    this.count = count;
    this.tally.total += chunk.length;
    this.crc = crc32(chunk, this.crc);
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    const { uncompressedSize, crc32: expected } = this.record.central;
    if (this.count !== uncompressedSize) return done(dataError(this.record, 'data.size', `its data is ${this.count} bytes, not the ${uncompressedSize} declared`));
    if (this.crc !== expected) {
      return done(dataError(this.record, 'data.crc', `its data has CRC-32 ${hex(this.crc)}, not the ${hex(expected)} declared`));
    }
    done();
  }

  private overrun(count: number): InstallError | undefined {
    const { record, limits } = this;
    const declared = record.central.uncompressedSize;
    if (count > declared) return dataError(record, 'data.size', `its data runs past the ${declared} bytes declared`);
    if (count > limits.maxEntryBytes) return limitError(record, 'limit.entry-size', `its data passes ${limits.maxEntryBytes} bytes`, raiseAdvice('maxEntryBytes', count));
    const total = this.tally.total + (count - this.count);
    if (total > limits.maxTotalBytes) return limitError(record, 'limit.total-size', `the package's data passes ${limits.maxTotalBytes} bytes`, raiseAdvice('maxTotalBytes', total));
    const packed = record.central.compressedSize;
    if (count > limits.ratioGraceBytes && count > limits.maxRatio * packed) {
      const ratio = packed === 0 ? 'from nothing' : `${Math.round(count / packed)}:1 already`;
      const problem = `its ${packed} compressed bytes inflate past ${count} (${ratio}), over the limit of ${limits.maxRatio}:1 for entries past ${limits.ratioGraceBytes} bytes`;
      return limitError(record, 'limit.ratio', problem, raiseAdvice('maxRatio', count / Math.max(packed, 1)));
    }
    return undefined;
  }
}

// yauzl reports size lies and zlib reports broken deflate streams; a file system error is not the archive's fault.
function classify(record: ZipRecord, error: unknown): unknown {
  if (error instanceof InstallError) return error;
  const err = error as NodeJS.ErrnoException;
  if (typeof err.syscall === 'string') return error;
  const message = err.message ?? String(error);
  if (/too many bytes|not enough bytes/.test(message)) return dataError(record, 'data.size', `its data does not match its declared size: ${message}`);
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
