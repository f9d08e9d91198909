// The kernel's log kept on disk: JSON lines appended to <core.log.path>/homed.log, rotated by size into homed.log.1
// (newest) … homed.log.<keep>, so months of running take a bounded few megabytes; read back newest file last.
import * as fs from 'node:fs';
import * as path from 'node:path';

export const LOG_FILE = 'homed.log';

export interface LogFilesOptions {
  /** Rotate once the current file passes this many bytes. */
  maxBytes: number;
  /** Rotated files kept besides the current one. */
  keep: number;
}

export const LOG_FILES_DEFAULTS: LogFilesOptions = { maxBytes: 8 * 1024 * 1024, keep: 4 };

/** Appends lines to the current file, rotating it by size; a failing disk costs lines, never the kernel. */
export class LogFiles {
  private fd: number | undefined;
  private size = 0;
  /** Lines that could not be written (a full or read-only disk); the stdout copy still has them. */
  lost = 0;

  constructor(
    readonly dir: string,
    private readonly options: LogFilesOptions = LOG_FILES_DEFAULTS,
  ) {}

  /** Appends one line (with its line break). */
  append(line: string): void {
    try {
      if (this.fd === undefined) this.open();
      const bytes = Buffer.byteLength(line);
      if (this.size > 0 && this.size + bytes > this.options.maxBytes) this.rotate();
      fs.writeSync(this.fd!, line);
      this.size += bytes;
    } catch {
      this.lost++;
      this.closeQuietly();
    }
  }

  /** Every kept file, oldest first. */
  files(): string[] {
    const rotated = Array.from({ length: this.options.keep }, (_, i) => path.join(this.dir, `${LOG_FILE}.${this.options.keep - i}`));
    return [...rotated, path.join(this.dir, LOG_FILE)].filter((file) => fs.existsSync(file));
  }

  close(): void {
    this.closeQuietly();
  }

  private open(): void {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = path.join(this.dir, LOG_FILE);
    this.fd = fs.openSync(file, 'a', 0o600);
    this.size = fs.fstatSync(this.fd).size;
  }

  private rotate(): void {
    this.closeQuietly();
    const file = path.join(this.dir, LOG_FILE);
    fs.rmSync(`${file}.${this.options.keep}`, { force: true });
    for (let n = this.options.keep - 1; n >= 1; n--) {
      if (fs.existsSync(`${file}.${n}`)) fs.renameSync(`${file}.${n}`, `${file}.${n + 1}`);
    }
    if (this.options.keep > 0) fs.renameSync(file, `${file}.1`);
    else fs.rmSync(file, { force: true });
    this.open();
  }

  private closeQuietly(): void {
    if (this.fd === undefined) return;
    try {
      fs.closeSync(this.fd);
    } catch {
      // already gone
    }
    this.fd = undefined;
  }
}
