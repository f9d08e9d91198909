// Per-chunk cost of the Lua adapters: one parsed stream event handed to event(ev, state) in fengari
// (JSON → Lua table, the adapter's code, its deltas back to JavaScript), beside JSON.parse of the same
// chunk measured in the same run. Target: ≤ 30 µs per chunk.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LuaAdapter } from '../../kernel/llm/adapter';
import { AdapterStore, BUILTIN_ADAPTER_DIR } from '../../kernel/llm/adapter-store';

/** One figure: µs per chunk through the adapter, and µs for JSON.parse of the chunk text. */
export interface LuaAdapterBenchRow {
  name: string;
  value: number;
  baseline: number;
  unit: string;
}

const BATCH = 500;
const BATCHES = 40;
const WARMUP = 3000;

// An OpenAI text delta as the recordings show it, measured through both adapter paths.
const OPENAI_TEXT_CHUNK = JSON.stringify({
  id: 'chatcmpl-ABfw031mOJeYCSHe4yI2ZjOA6kMJL',
  object: 'chat.completion.chunk',
  created: 1727346168,
  model: 'gpt-4o-2024-08-06',
  system_fingerprint: 'fp_5050236cbd',
  choices: [{ index: 0, delta: { content: ' weather' }, logprobs: null, finish_reason: null }],
});

// Chunks shaped like the recordings in shared/corpus/llm, one typical event per wire.
const CASES: { name: string; adapter: string; event?: string; text: string; publicApiOnly?: boolean }[] = [
  { name: 'openai text chunk', adapter: 'openai', text: OPENAI_TEXT_CHUNK },
  {
    name: 'openai tool-call fragment',
    adapter: 'openai',
    text: JSON.stringify({
      id: 'chatcmpl-ABfw8AOXnoa2kzy11vVTSjuQhHCQr',
      object: 'chat.completion.chunk',
      created: 1727346176,
      model: 'gpt-4o-2024-08-06',
      system_fingerprint: 'fp_7568d46099',
      choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: 'inburgh' } }] }, logprobs: null, finish_reason: null }],
    }),
  },
  { name: 'openai text chunk, public Lua API only', adapter: 'openai', publicApiOnly: true, text: OPENAI_TEXT_CHUNK },
  {
    name: 'anthropic text_delta',
    adapter: 'anthropic',
    event: 'content_block_delta',
    text: JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' there' } }),
  },
  {
    name: 'ollama chat line',
    adapter: 'ollama',
    text: JSON.stringify({ model: 'llama3.2', created_at: '2025-07-07T20:22:19.184789Z', message: { role: 'assistant', content: ' Tokyo' }, done: false }),
  },
];

/** Measures each case; the rows are µs per chunk (median of batches) with JSON.parse as the baseline. */
export async function benchLuaAdapter(): Promise<LuaAdapterBenchRow[]> {
  const store = new AdapterStore('/nonexistent-homeagent-data');
  const rows: LuaAdapterBenchRow[] = [];
  for (const c of CASES) {
    const adapter = c.publicApiOnly ? loadWithoutInternals(c.adapter) : store.load(c.adapter, 'bench');
    const stream = adapter.openStream();
    const parsed: unknown = JSON.parse(c.text);
    const event = c.event === undefined ? { data: parsed } : { event: c.event, data: parsed };
    let sink = 0;
    const adapterTime = measure(() => {
      sink += stream.handle(event).length;
    });
    const parseTime = measure(() => {
      sink += (JSON.parse(c.text) as object) === null ? 1 : 0;
    });
    stream.close();
    if (sink < 0) throw new Error('unreachable');
    rows.push({ name: c.name, value: adapterTime, baseline: parseTime, unit: 'µs' });
    await new Promise((resolve) => setImmediate(resolve));
  }
  return rows;
}

// The fallback used when fengari's internals are not the expected ones (see kernel/llm/lua/fast-tables.ts).
function loadWithoutInternals(name: string): LuaAdapter {
  const file = path.join(BUILTIN_ADAPTER_DIR, `${name}.lua`);
  return new LuaAdapter(name, file, fs.readFileSync(file, 'utf8'), { fastTables: false });
}

function measure(run: () => void): number {
  for (let i = 0; i < WARMUP; i++) run();
  const perChunk: number[] = [];
  for (let b = 0; b < BATCHES; b++) {
    const start = performance.now();
    for (let i = 0; i < BATCH; i++) run();
    perChunk.push(((performance.now() - start) * 1000) / BATCH);
  }
  perChunk.sort((a, b) => a - b);
  return perChunk[Math.floor(perChunk.length / 2)] as number;
}

if (require.main === module) {
  void benchLuaAdapter().then((rows) => {
    for (const row of rows)
      process.stdout.write(
        `${row.name.padEnd(40)} ${row.value.toFixed(2).padStart(8)} ${row.unit}   JSON.parse ${row.baseline.toFixed(2)} ${row.unit}   ×${(row.value / row.baseline).toFixed(1)}\n`,
      );
  });
}
