// Rung 3: config/list and config/get over the wire of a real plugin host, with settings too big to list.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ToolInvokeRequest } from '../../../protocol';
import { FAST_POLICY, startTestKernel, type TestKernel } from '../kernel-harness';

describe('config/list with six 900 KB settings', () => {
  let t: TestKernel;
  const call = async (tool: string, args: object = {}): Promise<unknown> => {
    const proc = t.kernel.supervisor.get('big-payloads').process!;
    return (await proc.channel.call(ToolInvokeRequest, { name: tool, args }, 10_000)).result;
  };

  before(async () => {
    t = await startTestKernel(['big-payloads'], FAST_POLICY);
    for (let i = 0; i < 6; i++) t.kernel.config.set('big-payloads', `blob${i}`, String(i).repeat(900_000));
    t.kernel.config.set('big-payloads', 'small', 'fits');
  });
  after(async () => {
    await t?.close();
  });

  test('answers every key, the big values left out with their sizes, again and again', async () => {
    for (let round = 0; round < 3; round++) {
      const listed = (await call('list_settings')) as { key: string; length: number | null; omittedBytes: number | null }[];
      assert.deepEqual(listed, [
        ...Array.from({ length: 6 }, (_, i) => ({ key: `blob${i}`, length: null, omittedBytes: 900_002 })),
        { key: 'small', length: 4, omittedBytes: null },
      ]);
    }
    assert.equal(t.kernel.supervisor.get('big-payloads').status().restarts, 0);
  });

  test('config/get still reads a big value whole', async () => {
    assert.deepEqual(await call('get_setting', { key: 'blob3' }), { length: 900_000 });
  });
});
