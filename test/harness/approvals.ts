// Lets a test's own tools through the approvals guard, which asks a person about every tool it does not know.
import * as path from 'node:path';
import { callOnce } from '../../plugins/cli/client';
import { adminSocketInDataDir } from '../../plugins/cli/locate';
import { SocketApi } from '../../protocol';

/** The owner's admin socket beside a homed's shared socket (`<data>/run/homed.sock`): guarded settings change only there. */
export function adminSocketBeside(socket: string): string {
  return adminSocketInDataDir(path.dirname(path.dirname(socket)));
}

/** Sets `approvals:policy` (guarded: through the admin socket) so that each of `tools` is allowed without asking. */
export async function allowTools(socket: string, tools: string[]): Promise<void> {
  await callOnce(adminSocketBeside(socket), SocketApi.ConfigSet, {
    scope: 'approvals',
    key: 'policy',
    value: Object.fromEntries(tools.map((tool) => [tool, 'allow'])),
  });
}
