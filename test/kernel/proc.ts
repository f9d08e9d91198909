// Reading /proc for process-level assertions (and the benchmarks' probes): children, liveness, listening sockets.
import * as fs from 'node:fs';

/** Pids whose parent is `pid`. */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === pid && fields[0] !== 'Z') children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

/** Pids whose command line contains `marker` (e.g. a test's data dir or a plugin host title). */
export function pidsWithCmdline(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z') continue;
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** Socket inodes held open by a process. */
function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match?.[1]) inodes.add(match[1]);
    } catch {
      // closed meanwhile
    }
  }
  return inodes;
}

const SO_ACCEPTCON = 0x10000;
const TCP_LISTEN = '0A';

/** Every listening socket (Unix, TCP, UDP of either family) that the process holds, described. */
export function listeningSockets(pid: number): string[] {
  const mine = socketInodes(pid);
  const found: string[] = [];
  const read = (file: string): string[] => {
    try {
      return fs.readFileSync(file, 'utf8').trim().split('\n').slice(1);
    } catch {
      return [];
    }
  };
  for (const line of read(`/proc/${pid}/net/unix`)) {
    const cols = line.trim().split(/\s+/);
    if (mine.has(cols[6] ?? '') && (parseInt(cols[3] ?? '0', 16) & SO_ACCEPTCON) !== 0) found.push(`unix ${cols[7] ?? '(unnamed)'}`);
  }
  for (const proto of ['tcp', 'tcp6']) {
    for (const line of read(`/proc/${pid}/net/${proto}`)) {
      const cols = line.trim().split(/\s+/);
      if (mine.has(cols[9] ?? '') && cols[3] === TCP_LISTEN) found.push(`${proto} ${cols[1]}`);
    }
  }
  for (const proto of ['udp', 'udp6']) {
    for (const line of read(`/proc/${pid}/net/${proto}`)) {
      const cols = line.trim().split(/\s+/);
      if (mine.has(cols[9] ?? '')) found.push(`${proto} ${cols[1]}`);
    }
  }
  return found;
}
