// Issue 3's figures: interrupt → provider socket closed (idle, and while a plugin floods the kernel),
// and the kernel's overhead per turn (socket in → first token out, minus the fake LLM's own time to first token).
// A real homed with its built-ins and three plugins hooked on every stage; the LLM is the fake HTTP server.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { SocketApi, STAGE_NAMES } from '../../protocol';
import { startFakeLlm, type FakeLlm } from '../../test/fake-llm/server';
import { SocketClient, startHomed } from './homed-process';
import { makeRow, type BenchRow } from './results';
import { quantile, sleep, withDeadline } from './stats';

const SECTION = '5 agent';
const TURNS = 60;
const INTERRUPTS = 40;

export async function benchAgent(): Promise<BenchRow[]> {
  const llm = await startFakeLlm();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-agent-'));
  writeBenchPlugins(dataDir);
  const homed = await startHomed(dataDir, llm);
  const client = await SocketClient.connect(path.join(dataDir, 'run', 'homed.sock'));
  try {
    const rows: BenchRow[] = [];
    const overhead = await measureTurnOverhead(client, llm);
    rows.push(
      makeRow(
        SECTION,
        "kernel overhead per turn p50 (socket in → first token out, minus the LLM's TTFT)",
        quantile(overhead.kernel, 0.5),
        'ms',
        'fake LLM TTFT p50',
        quantile(overhead.llm, 0.5),
        TURNS,
        { kind: 'value-at-most', max: 3 },
      ),
      makeRow(SECTION, 'kernel overhead per turn p99', quantile(overhead.kernel, 0.99), 'ms', 'fake LLM TTFT p99', quantile(overhead.llm, 0.99), TURNS),
    );
    const baseline = await measureDirectAbort(llm);
    const idle = await measureInterrupts(client, llm);
    rows.push(
      makeRow(SECTION, 'interrupt → provider socket closed p50, idle', quantile(idle, 0.5), 'ms', 'in-process abort p50', quantile(baseline, 0.5), INTERRUPTS),
      makeRow(
        SECTION,
        'interrupt → provider socket closed p99, idle',
        quantile(idle, 0.99),
        'ms',
        'in-process abort p99',
        quantile(baseline, 0.99),
        INTERRUPTS,
        { kind: 'value-at-most', max: 5 },
      ),
    );
    await client.call(SocketApi.ConfigSet, { scope: 'flood', key: 'on', value: true });
    await sleep(500);
    const countBefore = Number((await client.call(SocketApi.ConfigGet, { scope: 'flood', key: 'count' })).entry.value);
    const floodStart = performance.now();
    const flooded = await measureInterrupts(client, llm);
    const countAfter = Number((await client.call(SocketApi.ConfigGet, { scope: 'flood', key: 'count' })).entry.value);
    const rate = ((countAfter - countBefore) / (performance.now() - floodStart)) * 1000;
    await client.call(SocketApi.ConfigSet, { scope: 'flood', key: 'on', value: false });
    rows.push(
      makeRow(
        SECTION,
        `interrupt → socket closed p50, while a plugin floods (${Math.round(rate)} req/s)`,
        quantile(flooded, 0.5),
        'ms',
        'in-process abort p50',
        quantile(baseline, 0.5),
        INTERRUPTS,
      ),
      makeRow(
        SECTION,
        'interrupt → socket closed p99, while a plugin floods',
        quantile(flooded, 0.99),
        'ms',
        'in-process abort p99',
        quantile(baseline, 0.99),
        INTERRUPTS,
        { kind: 'value-at-most', max: 20 },
      ),
    );
    return rows;
  } finally {
    client.close();
    homed.kill('SIGTERM');
    await new Promise((resolve) => homed.once('exit', resolve));
    await llm.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measureTurnOverhead(client: SocketClient, llm: FakeLlm): Promise<{ kernel: number[]; llm: number[] }> {
  const kernel: number[] = [];
  const llmTtft: number[] = [];
  for (let i = 0; i < TURNS + 5; i++) {
    // Tokens come 5 ms apart, as from a real model, so the first one is not held behind the rest of the answer.
    llm.enqueue({ text: 'Hello there, this is an answer.', tokenDelayMs: 5 });
    const sent = performance.now();
    let first = 0;
    await client.call(SocketApi.ChatSay, { session: `bench-turn-${i % 3}`, text: `question ${i}` }, (item) => {
      if (first === 0 && (item as { kind?: string }).kind === 'delta') first = performance.now();
    });
    const request = llm.requests[llm.requests.length - 1]!;
    // OpenAI's first chunk carries only the role; the first token is the second chunk.
    const firstToken = request.chunkTimes[1];
    if (i < 5 || !first || firstToken === undefined) continue; // warm-up
    const ttft = firstToken - request.receivedAt;
    kernel.push(first - sent - ttft);
    llmTtft.push(ttft);
  }
  return { kernel, llm: llmTtft };
}

async function measureInterrupts(client: SocketClient, llm: FakeLlm): Promise<number[]> {
  const delays: number[] = [];
  for (let i = 0; i < INTERRUPTS + 3; i++) {
    llm.enqueue({ text: 'tick '.repeat(3000), tokenDelayMs: 5 });
    const session = `bench-int-${i}`;
    let interruptedAt = 0;
    let request: Promise<unknown> | undefined;
    const streaming = new Promise<void>((resolve) => {
      request = client.call(SocketApi.ChatSay, { session, text: 'talk for a long time' }, (item) => {
        if ((item as { kind?: string }).kind === 'delta') resolve();
      });
    });
    await withDeadline(streaming, 10_000, 'the stream to start');
    const fake = llm.requests[llm.requests.length - 1]!;
    interruptedAt = performance.now();
    client.notify(SocketApi.ChatInterrupt, { session });
    await withDeadline(fake.connection.closed, 10_000, 'the provider socket to close');
    await request;
    if (i >= 3) delays.push(fake.connection.closedAt! - interruptedAt);
  }
  return delays;
}

/** The floor: an in-process HTTP request aborted with an AbortController, as seen closing at the same server. */
async function measureDirectAbort(llm: FakeLlm): Promise<number[]> {
  const delays: number[] = [];
  for (let i = 0; i < INTERRUPTS + 3; i++) {
    llm.enqueue({ text: 'tick '.repeat(3000), tokenDelayMs: 5 });
    const controller = new AbortController();
    const body = JSON.stringify({ model: 'x', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const started = new Promise<void>((resolve, reject) => {
      const req = http.request(
        `${llm.baseUrl('openai')}/chat/completions`,
        { method: 'POST', signal: controller.signal, headers: { 'content-type': 'application/json' } },
        (res) => {
          res.once('data', () => resolve());
          res.on('error', () => undefined);
        },
      );
      req.on('error', (error) => (controller.signal.aborted ? undefined : reject(error)));
      req.end(body);
    });
    await started;
    const fake = llm.requests[llm.requests.length - 1]!;
    const abortedAt = performance.now();
    controller.abort();
    await fake.connection.closed;
    if (i >= 3) delays.push(fake.connection.closedAt! - abortedAt);
  }
  return delays;
}

function writeBenchPlugins(dataDir: string): void {
  const write = (name: string, manifest: object, code: string): void => {
    const dir = path.join(dataDir, 'plugins', name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'plugin.json'), JSON.stringify({ name, version: '1.0.0', entry: 'index.mjs', ...manifest }));
    fs.writeFileSync(path.join(dir, 'index.mjs'), code);
  };
  const stages = `export default { stages: { ${STAGE_NAMES.map((s) => `${s}: () => null`).join(', ')} } };\n`;
  for (const name of ['stage-pass-a', 'stage-pass-b', 'stage-pass-c']) write(name, { permissions: ['stages'] }, stages);
  write(
    'flood',
    {
      permissions: ['events'],
      config: [
        { key: 'on', type: 'bool', default: false },
        { key: 'count', type: 'int', default: 0 },
      ],
    },
    `// Keeps 256 config/get requests in flight while its 'on' setting is true.
let on = false, inflight = 0, count = 0;
const pump = (ctx) => {
  while (on && inflight < 256) {
    inflight++;
    ctx.config.get('on').finally(() => { inflight--; count++; pump(ctx); });
  }
};
export default {
  async activate(ctx) {
    await ctx.events.on('config.changed', (e) => {
      if (e.data?.scope === 'flood' && e.data?.key === 'on') { on = e.data.entry.value === true; pump(ctx); }
    });
    setInterval(() => { void ctx.config.set('count', count); }, 250);
  },
};
`,
  );
}
