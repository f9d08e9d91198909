import * as fs from 'node:fs';

/** A process's resident memory in MB: all of it, and the private (anonymous) part; NaN when it is gone. */
export interface Rss {
  /** VmRSS: what top and the 55 MB target count, including pages of the node binary shared with every other node process. */
  rssMb: number;
  /** RssAnon: heap, stacks and other memory only this process holds. */
  anonMb: number;
}

/** Reads VmRSS and RssAnon from /proc/<pid>/status. */
export function readRss(pid: number): Rss {
  let status = '';
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    // gone
  }
  const field = (name: string): number => {
    const match = new RegExp(`^${name}:\\s+(\\d+)\\s+kB`, 'm').exec(status);
    return match ? Number(match[1]) / 1024 : Number.NaN;
  };
  return { rssMb: field('VmRSS'), anonMb: field('RssAnon') };
}

/** The process's title as `ps` shows it (`homeagent-plugin:cli`). */
export function readCmdline(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
  } catch {
    return '';
  }
}

/** CPU time (user + system) a process has used so far, in µs; 10 ms resolution; NaN when it is gone. */
export function readCpuUs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (USER_HZ = 100 on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return Number.NaN;
  }
}
