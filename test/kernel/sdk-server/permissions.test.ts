// The SDK server checks every call against the caller's grant, over real plugin processes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ErrorCodes, ToolInvokeRequest } from '../../../protocol';
import { startTestKernel, type TestKernel } from '../kernel-harness';
import { waitFor } from '../../harness/wait';

describe('the SDK server', () => {
  let t: TestKernel;
  const call = async (plugin: string, tool: string, args: object = {}): Promise<Record<string, unknown>> => {
    const proc = t.kernel.supervisor.get(plugin).process!;
    return (await proc.channel.call(ToolInvokeRequest, { name: tool, args })).result as Record<string, unknown>;
  };

  before(async () => {
    t = await startTestKernel(['good', 'nosy']);
  });
  after(async () => {
    await t?.close();
  });

  test('a plugin reads and writes its own table and sees its own secret; listings and named-scope reads mask it', async () => {
    const result = (await call('nosy', 'own', { token: 's3cret-token' })) as Record<string, { ok: boolean; value?: unknown; code?: number; message?: string }>;
    assert.equal(result['set']?.ok, true);
    assert.equal((result['set']?.value as { value: unknown }).value, '********');
    assert.equal(result['get']?.value, 's3cret-token');
    assert.equal(result['named']?.value, '********', 'naming the scope, even its own, gets the masked value (what a relay like cli does)');
    assert.ok(!JSON.stringify(result['list']).includes('s3cret-token'), 'a listing never carries the secret');
    assert.equal(result['bad']?.ok, false);
    assert.equal(result['bad']?.code, ErrorCodes.InvalidValue);
    assert.match(result['bad']?.message ?? '', /^nosy:greeting: 42 is not a string/);
    assert.equal(t.kernel.config.getValue('nosy', 'token'), 's3cret-token');
  });

  test("another plugin's table and the core table are refused with the permission named, and counted", async () => {
    const before = t.kernel.supervisor.get('nosy').status().denied_calls;
    const result = (await call('nosy', 'others')) as Record<string, { ok: boolean; code?: number; message?: string }>;
    assert.equal(result['read']?.ok, false);
    assert.equal(result['read']?.code, ErrorCodes.PermissionDenied);
    assert.match(result['read']?.message ?? '', /plugin "nosy" may not call config\/get: it needs the permission "config.others" or "admin"/);
    assert.equal(result['core']?.code, ErrorCodes.PermissionDenied);
    assert.match(result['core']?.message ?? '', /"admin"/);
    assert.equal(t.kernel.supervisor.get('nosy').status().denied_calls, before + 2);
    assert.notEqual(t.kernel.config.getValue('core', 'core.log.level'), 'debug');
  });

  test("a plugin's events reach subscribers under its own name, and it cannot pose as the kernel", async () => {
    const received: { name: string; source: string }[] = [];
    t.kernel.bus.subscribe('test', 'nosy.*', (event) => received.push(event));
    t.kernel.bus.subscribe('test', 'plugin.ready', (event) => received.push(event));
    await call('nosy', 'publish');
    await waitFor(() => received.length >= 2, { what: 'the event' });
    assert.deepEqual(received.map((e) => [e.name, e.source]).sort(), [
      ['nosy.hello', 'nosy'],
      ['nosy.plugin.ready', 'nosy'],
    ]);
  });

  test('config.changed is published with the value masked', async () => {
    const seen: unknown[] = [];
    t.kernel.bus.subscribe('test-config', 'config.changed', (event) => seen.push(event.data));
    t.kernel.config.set('nosy', 'token', 'another-secret');
    assert.equal(seen.length, 1);
    assert.ok(!JSON.stringify(seen).includes('another-secret'));
  });
});
