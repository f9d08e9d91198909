// Rung 1: the kernel's end of a plugin connection over two in-memory connections, deadlines on a fake clock.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test, type TestContext } from 'node:test';
import type { CancellationToken, MessageConnection } from 'vscode-jsonrpc';
import { ErrorCodes, haError, NO_PARAMS, notification, PingRequest, request } from '../../../protocol';
import { PluginChannel } from '../../../kernel/supervisor/channel';
import { createWireConnection } from '../../../protocol/runtime/wire';
import { connectedPair } from '../../harness/connection-pair';
import { requestType } from '../../../protocol/runtime/rpc-types';

const Slow = request<{ n: number }, { n: number }>('test/slow', { params: NO_PARAMS, permission: null });
const Note = notification<{ text: string }>('test/note', { params: NO_PARAMS, permission: null });
const DEADLINE_MS = 250;

/** A channel named "weather" on side a; side b plays the plugin. */
function weather(t: TestContext): { channel: PluginChannel; plugin: MessageConnection } {
  const pair = connectedPair();
  t.after(() => pair.close());
  return { channel: new PluginChannel('weather', pair.a, DEADLINE_MS), plugin: pair.b };
}

/** A request handler on the plugin's side that never answers and resolves `cancelled` when the kernel gives up. */
function neverAnswers(plugin: MessageConnection): { called: Promise<void>; cancelled: Promise<void> } {
  let called!: () => void;
  let cancelled!: () => void;
  const result = { called: new Promise<void>((r) => (called = r)), cancelled: new Promise<void>((r) => (cancelled = r)) };
  plugin.onRequest(requestType(Slow), (_params: { n: number }, token: CancellationToken) => {
    token.onCancellationRequested(() => cancelled());
    called();
    return new Promise<never>(() => undefined);
  });
  return result;
}

test('a heartbeat ping is answered through the channel with its sequence number', async (t) => {
  const { channel, plugin } = weather(t);
  plugin.onRequest(requestType(PingRequest), (params) => ({ seq: params.seq }));
  assert.deepEqual(await channel.call(PingRequest, { seq: 7 }), { seq: 7 });
  assert.deepEqual(await channel.call(PingRequest, { seq: 8 }), { seq: 8 });
  assert.equal(channel.timeouts, 0);
});

test('a call past its deadline fails with HA_ERR_REQUEST_TIMEOUT naming the plugin, and the plugin is told to cancel', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { channel, plugin } = weather(t);
  const handler = neverAnswers(plugin);
  const call = channel.call(Slow, { n: 1 });
  await handler.called;
  t.mock.timers.tick(DEADLINE_MS - 1);
  let settled = false;
  void call.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(settled, false, 'still pending 1 ms before its deadline');
  t.mock.timers.tick(1);
  await assert.rejects(call, (error: { code: number; message: string; data: { plugin: string; method: string; timedOut: boolean } }) => {
    assert.equal(error.code, ErrorCodes.RequestTimeout);
    assert.equal(error.message, 'plugin "weather" did not answer test/slow within 250 ms; see homectl plugins logs weather');
    assert.deepEqual(error.data, { name: 'HA_ERR_REQUEST_TIMEOUT', plugin: 'weather', method: 'test/slow', timedOut: true });
    return true;
  });
  await handler.cancelled;
  assert.equal(channel.timeouts, 1);
});

test('a deadline of its own overrides the channel default', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { channel, plugin } = weather(t);
  const handler = neverAnswers(plugin);
  const call = channel.call(Slow, { n: 2 }, 5_000);
  await handler.called;
  t.mock.timers.tick(DEADLINE_MS);
  t.mock.timers.tick(5_000 - DEADLINE_MS);
  await assert.rejects(call, /did not answer test\/slow within 5 s/);
  assert.equal(channel.timeouts, 1);
});

test('an aborted call fails at once as an AbortError, the plugin is told to cancel, and it is no timeout', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { channel, plugin } = weather(t);
  const handler = neverAnswers(plugin);
  const abort = new AbortController();
  const call = channel.call(Slow, { n: 3 }, undefined, abort.signal);
  await handler.called;
  abort.abort();
  await assert.rejects(call, (error: Error) => error.name === 'AbortError' && /call test\/slow to plugin "weather" was cancelled/.test(error.message));
  await handler.cancelled;
  t.mock.timers.tick(DEADLINE_MS * 2);
  assert.equal(channel.timeouts, 0, 'the settled call left no deadline behind');
  await assert.rejects(channel.call(Slow, { n: 4 }, undefined, abort.signal), { name: 'AbortError' });
});

test('close fails every pending call at once with the given error and refuses new ones; notify after it is silent', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { channel, plugin } = weather(t);
  const handler = neverAnswers(plugin);
  const calls = [channel.call(Slow, { n: 1 }), channel.call(Slow, { n: 2 })];
  await handler.called;
  const crashed = haError(ErrorCodes.PluginCrashed, 'plugin "weather" exited (code 1) before answering', { plugin: 'weather' });
  channel.close(crashed);
  for (const call of calls) await assert.rejects(call, (error) => error === crashed);
  await assert.rejects(channel.call(Slow, { n: 3 }), (error) => error === crashed);
  assert.doesNotThrow(() => channel.notify(Note, { text: 'late' }));
  t.mock.timers.tick(DEADLINE_MS * 2);
  assert.equal(channel.timeouts, 0, 'no deadline outlived the close');
});

test('once the wire has closed, before the exit is known, a notify does not throw and a call fails at once, leaving no deadline', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  // The plugin's pipe closes as its process dies; the channel hears of the exit only later (close()).
  const fromPlugin = new PassThrough();
  const { connection } = createWireConnection(fromPlugin, new PassThrough());
  connection.listen();
  t.after(() => connection.dispose());
  const channel = new PluginChannel('weather', connection, DEADLINE_MS);
  const closed = new Promise<void>((resolve) => connection.onClose(() => resolve()));
  fromPlugin.destroy();
  await closed;
  assert.doesNotThrow(() => channel.notify(Note, { text: 'late' }));
  await assert.rejects(channel.call(Slow, { n: 1 }), /Connection is closed/);
  t.mock.timers.tick(DEADLINE_MS * 2);
  assert.equal(channel.timeouts, 0, 'the refused call left no deadline running');
});
