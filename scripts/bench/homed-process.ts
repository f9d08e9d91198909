// A real homed for the benches, on the fake LLM, and a JSON-lines client of its socket.
import { spawn, type ChildProcess } from 'node:child_process';
import * as net from 'node:net';
import type { FakeLlm } from '../../test/fake-llm/server';
import type { RequestDescriptor } from '../../protocol';
import { cleanEnv } from './clean-env';
import { HOMED_MAIN } from './paths';
import { sleep } from './stats';

/** Starts homed on `dataDir` with the fake LLM as its provider and the memory loops off; resolves once it is ready. */
export async function startHomed(dataDir: string, llm: FakeLlm): Promise<ChildProcess> {
  const homed = spawn(process.execPath, [HOMED_MAIN, '-data', dataDir], {
    env: {
      ...cleanEnv(),
      HOMEAGENT_LLM_ADAPTER: 'openai',
      HOMEAGENT_LLM_BASE_URL: llm.baseUrl('openai'),
      HOMEAGENT_LLM_MODEL: 'bench',
      HOMEAGENT_LLM_API_KEY: 'bench-key',
      // The memory loops' own model calls would take answers scripted for the measured turns.
      HOMEAGENT_MEMORY_POLICY: JSON.stringify({ distill: { enabled: false }, consolidation: { enabled: false } }),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  homed.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const deadline = Date.now() + 20_000;
  while (!output.includes('"msg":"homed ready"')) {
    if (Date.now() > deadline || homed.exitCode !== null) throw new Error(`homed did not get ready:\n${output.slice(-2000)}`);
    await sleep(20);
  }
  homed.stdout!.resume();
  return homed;
}

/** A JSON-lines client of the cli plugin's socket, with stream items handed to a callback. */
export class SocketClient {
  private buffer = '';
  private next = 0;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void; onItem?: (item: unknown) => void }>();

  private constructor(private readonly socket: net.Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => this.receive(chunk));
  }

  static connect(file: string): Promise<SocketClient> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(file, () => resolve(new SocketClient(socket)));
      socket.once('error', reject);
    });
  }

  /** Calls the method `descriptor` declares; stream items go to `onItem`, the result is the descriptor's. */
  call<P, R>(descriptor: RequestDescriptor<P, R>, params: NoInfer<P>, onItem?: (item: unknown) => void): Promise<R> {
    const id = ++this.next;
    return new Promise<R>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, ...(onItem ? { onItem } : {}) });
      this.socket.write(`${JSON.stringify({ id, method: descriptor.method, params })}\n`);
    });
  }

  /** Sends the method `descriptor` declares as a notification: no answer. */
  notify<P>(descriptor: RequestDescriptor<P, unknown>, params: NoInfer<P>): void {
    this.socket.write(`${JSON.stringify({ method: descriptor.method, params })}\n`);
  }

  close(): void {
    this.socket.destroy();
  }

  private receive(chunk: string): void {
    const lines = (this.buffer + chunk).split('\n');
    this.buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (!line) continue;
      const message = JSON.parse(line) as { id: number; result?: unknown; error?: { message: string }; stream?: unknown };
      const waiter = this.pending.get(message.id);
      if (!waiter) continue;
      if (message.stream !== undefined) waiter.onItem?.(message.stream);
      else {
        this.pending.delete(message.id);
        if (message.error) waiter.reject(new Error(message.error.message));
        else waiter.resolve(message.result);
      }
    }
  }
}
