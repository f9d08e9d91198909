// Killing a command's whole tree: its process group, and every descendant found through /proc (a child that
// left the group with setsid is still a descendant until its parent dies, so the walk comes first).
import * as fs from 'node:fs';

/** Pids whose ancestry leads to `root` (not `root` itself), from /proc/<pid>/stat. */
export function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const ppid = parentOf(name);
    if (ppid === null) continue;
    const list = children.get(ppid) ?? [];
    list.push(Number(name));
    children.set(ppid, list);
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function parentOf(pid: string): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The name in parentheses may hold spaces and parentheses: the fields after the last ')' are plain.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[1]);
  } catch {
    return null;
  }
}

/** SIGKILLs the group led by `pid`. */
export function killGroup(pid: number): void {
  signal(-pid);
}

/** SIGKILLs the group led by `pid` and every descendant of `pid`. */
export function killTree(pid: number): void {
  const descendants = descendantsOf(pid);
  signal(-pid);
  for (const child of descendants) signal(child);
}

function signal(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
