// Lets a test's own tools through the approvals guard, which asks a person about every tool it does not know.
import { requestOnce } from '../../plugins/cli/client';
import { SocketMethods } from '../../protocol';

/** Sets `approvals:policy` so that each of `tools` is allowed without asking. */
export async function allowTools(socket: string, tools: string[]): Promise<void> {
  await requestOnce(socket, SocketMethods.ConfigSet, { scope: 'approvals', key: 'policy', value: Object.fromEntries(tools.map((tool) => [tool, 'allow'])) });
}
