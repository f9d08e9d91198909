// A progress bar on a terminal: bytes done of the total and the percentage, redrawn at most ten times a second.
import { formatBytes } from '../../protocol/format';

/** One task's progress, in bytes. */
export interface ProgressMeter {
  /** Counts bytes done. */
  add(bytes: number): void;
  /** Ends the bar (the line is cleared). */
  finish(): void;
}

/** Starts a meter for a task of `totalBytes`, labelled e.g. `backup`. */
export type ProgressReporter = (label: string, totalBytes: number) => ProgressMeter;

/** A reporter that shows nothing: stderr is not a terminal, or a test. */
export const silentProgress: ProgressReporter = () => ({ add: () => undefined, finish: () => undefined });

const REDRAW_MS = 100;
const BAR_WIDTH = 30;

/** A reporter that draws on a terminal stream (homectl passes stderr when it is one). */
export function terminalProgress(stream: NodeJS.WriteStream): ProgressReporter {
  return (label, totalBytes) => {
    let done = 0;
    let drawnAt = 0;
    const draw = (): void => {
      const fraction = totalBytes > 0 ? Math.min(1, done / totalBytes) : 1;
      const filled = Math.round(fraction * BAR_WIDTH);
      const bar = `${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}`;
      stream.write(`\r${label} [${bar}] ${formatBytes(done)} / ${formatBytes(totalBytes)} ${Math.floor(fraction * 100)}%\x1b[K`);
    };
    draw();
    return {
      add(bytes) {
        done += bytes;
        const now = Date.now();
        if (now - drawnAt < REDRAW_MS) return;
        drawnAt = now;
        draw();
      },
      finish() {
        done = Math.max(done, totalBytes);
        draw();
        stream.write('\r\x1b[K');
      },
    };
  };
}
