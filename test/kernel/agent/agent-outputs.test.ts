// The way out of a turn: outputs wait in the bounded channel for the delivering loop, and a burst larger than the
// channel (a provider's chunk of hundreds of deltas, read in one go) still reaches its plugin whole and in order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { AgentOutputs } from '../../../kernel/agent/agent-outputs';
import type { SessionStore } from '../../../kernel/agent/sessions';
import { IOManager, OUTPUT_CHANNEL_SIZE, type OutputEvent } from '../../../kernel/io/io-manager';

test('a burst of four times the output channel reaches its plugin in order, none dropped, none overtaking', async () => {
  const io = new IOManager();
  const delivered: string[] = [];
  const outputs = new AgentOutputs({ io, sessions: {} as SessionStore, deliver: (output) => delivered.push(output.text ?? '') });
  // The agent's delivering loop: it waits on the channel and hands each output on as it comes.
  let running = true;
  const loop = (async () => {
    while (running) delivered.push((await io.outputs.take()).text ?? '');
  })();
  const burst = 4 * OUTPUT_CHANNEL_SIZE;
  const event = (i: number): OutputEvent => ({ target: 'cli', session: 's', kind: 'delta', text: String(i) });
  for (let i = 0; i < burst; i++) outputs.emit(event(i));
  await nextTurn();
  assert.equal(delivered.length, burst);
  assert.deepEqual(
    delivered,
    Array.from({ length: burst }, (_, i) => String(i)),
  );
  // And once the burst is over, the loop carries outputs again.
  running = false;
  outputs.emit(event(burst));
  await loop;
  assert.equal(delivered.at(-1), String(burst));
});
