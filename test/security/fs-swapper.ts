// A local attacker's swap loop for the race tests: a process exchanging two names (a folder and a symlink) with
// renameat2(RENAME_EXCHANGE) as fast as it can, built at test time with cc, or run by python3 through ctypes on
// x86_64. It ends when its parent does, and the test stops it by pid.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const C_SOURCE = `#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
int main(int argc, char **argv) {
  (void)argc;
  pid_t parent = getppid();
  for (unsigned long i = 0;; i++) {
    syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD, argv[2], 2 /* RENAME_EXCHANGE */);
    if ((i & 1023) == 0 && getppid() != parent) return 0;
  }
}
`;

const PYTHON_SOURCE = `import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
a, b, parent = sys.argv[1].encode(), sys.argv[2].encode(), os.getppid()
i = 0
while True:
    libc.syscall(316, -100, a, -100, b, 2)
    i += 1
    if i % 1024 == 0 and os.getppid() != parent:
        break
`;

/** How to run the swap loop here (argv before the two names), or a reason it cannot run. */
export function prepareSwapper(dir: string): { argv: string[] } | { skip: string } {
  const source = path.join(dir, 'swap.c');
  const binary = path.join(dir, 'swap');
  fs.writeFileSync(source, C_SOURCE);
  const cc = spawnSync('cc', ['-O2', '-o', binary, source], { encoding: 'utf8' });
  if (!cc.error && cc.status === 0) return { argv: [binary] };
  if (process.arch !== 'x64')
    return { skip: `no C compiler (cc) to build the swap loop, and python3's syscall number 316 is x86_64's only (this is ${process.arch})` };
  const python = spawnSync('python3', ['-c', 'import ctypes'], { encoding: 'utf8' });
  if (python.error || python.status !== 0) return { skip: 'neither a C compiler (cc) nor python3 with ctypes is here to run the renameat2 swap loop' };
  const script = path.join(dir, 'swap.py');
  fs.writeFileSync(script, PYTHON_SOURCE);
  return { argv: ['python3', script] };
}

/** Starts the loop exchanging `a` and `b`; resolves once a swap has been seen (`a` became a symlink). */
export async function startSwapper(argv: string[], a: string, b: string): Promise<ChildProcess> {
  const [file, ...args] = argv as [string, ...string[]];
  const child = spawn(file, [...args, a, b], { stdio: 'ignore' });
  const deadline = Date.now() + 30_000;
  while (!fs.lstatSync(a, { throwIfNoEntry: false })?.isSymbolicLink()) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the swap loop did not swap ${a} and ${b} (exit ${child.exitCode})`);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return child;
}

/** Stops the loop and waits for it to be gone. */
export async function stopSwapper(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}
