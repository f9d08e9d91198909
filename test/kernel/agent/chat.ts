// Drives the agent through the chat-client fixture plugin: real input, real interrupts, real outputs.
import { ToolInvokeRequest, type OutputParams } from '../../../protocol';
import { type TestKernel } from '../kernel-harness';
import { waitFor } from '../../harness/wait';

let next = 0;

export async function callTool(t: TestKernel, plugin: string, name: string, args: object = {}): Promise<unknown> {
  const proc = t.kernel.supervisor.get(plugin).process;
  if (!proc) throw new Error(`${plugin} is not running`);
  return (await proc.channel.call(ToolInvokeRequest, { name, args })).result;
}

export async function outputs(t: TestKernel): Promise<(OutputParams & { at: number })[]> {
  return (await callTool(t, 'chat-client', 'outputs')) as (OutputParams & { at: number })[];
}

/** Sends a message through chat-client; answers its inputId. */
export async function send(t: TestKernel, session: string, text: string): Promise<string> {
  const inputId = `in-${++next}`;
  await callTool(t, 'chat-client', 'say', { session, text, inputId });
  return inputId;
}

/** Waits for the one final output (done or error) of an input. */
export async function finalOf(t: TestKernel, inputId: string, timeoutMs = 15_000): Promise<OutputParams & { at: number }> {
  let found: (OutputParams & { at: number }) | undefined;
  await waitFor(
    async () => {
      found = (await outputs(t)).find((o) => o.inputId === inputId && (o.kind === 'done' || o.kind === 'error'));
      return found;
    },
    { what: `the answer to ${inputId}`, timeoutMs, intervalMs: 50 },
  );
  return found!;
}

/** Sends and waits for the answer. */
export async function ask(t: TestKernel, session: string, text: string): Promise<OutputParams & { at: number }> {
  return finalOf(t, await send(t, session, text));
}
