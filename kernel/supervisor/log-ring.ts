import type { LogLine } from '../../protocol';

/** The newest log lines of one plugin, for `homectl plugins logs`. */
export class LogRing {
  private readonly lines: LogLine[] = [];

  constructor(private readonly capacity: number) {}

  push(line: LogLine): void {
    this.lines.push(line);
    if (this.lines.length > this.capacity) this.lines.splice(0, this.lines.length - this.capacity);
  }

  tail(count: number): LogLine[] {
    return this.lines.slice(-Math.max(0, count));
  }
}

const MAX_LINE_CHARS = 4096;

/** Splits a byte stream into lines, calling `onLine` for each (over-long lines are cut). */
export function forEachLine(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let partial = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() ?? '';
    if (partial.length > MAX_LINE_CHARS) {
      parts.push(partial);
      partial = '';
    }
    for (const line of parts) if (line.length > 0) onLine(line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line);
  });
  stream.on('end', () => {
    if (partial.length > 0) onLine(partial.slice(0, MAX_LINE_CHARS));
  });
}
