// Preloaded with --require into a command whose peak memory is measured: at exit it appends its VmHWM (kB) to
// the file named by BENCH_PEAK_RSS_FILE.
import * as fs from 'node:fs';

const file = process.env['BENCH_PEAK_RSS_FILE'];
if (file) {
  process.on('exit', () => {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (hwm) fs.appendFileSync(file, `${hwm}\n`);
  });
}
