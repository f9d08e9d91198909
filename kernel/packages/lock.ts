import * as path from 'node:path';

const tails = new Map<string, Promise<unknown>>();

/** Runs `task` after every earlier task on the same folder has settled: installs and removals never interleave. */
export function serialize<T>(folder: string, task: () => Promise<T>): Promise<T> {
  const key = path.resolve(folder);
  const previous = tails.get(key) ?? Promise.resolve();
  const result = previous.then(task, task);
  const tail = result.catch(() => undefined);
  tails.set(key, tail);
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key);
  });
  return result;
}
