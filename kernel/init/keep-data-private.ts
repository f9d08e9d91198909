import type { Logger } from 'pino';
import type { CorePaths } from '../config';
import { makePrivate, privatePaths, type DataTree } from '../paths';

/** The databases and memory folders are the owner's alone, also when an older homed or a person made them readable. */
export function keepDataPrivate(tree: DataTree, paths: CorePaths, log: Logger): void {
  try {
    makePrivate(privatePaths(tree, paths));
  } catch (error) {
    log.warn(`could not make the data files owner-only: ${(error as Error).message}`);
  }
}
