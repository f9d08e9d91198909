// Finding util-linux's unshare, mount and setpriv: on PATH, or in the usual system folders when PATH lacks them.
import * as path from 'node:path';
import { cachedFinder } from '../../protocol/runtime/executables';

const SYSTEM_DIRS = ['/usr/bin', '/bin', '/usr/sbin', '/sbin'];

/** The executable's path, or null; looked up once per name. */
export const findTool = cachedFinder(() => [process.env['PATH'] ?? '', ...SYSTEM_DIRS].join(path.delimiter));
