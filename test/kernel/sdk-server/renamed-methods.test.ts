// Renamed wire methods keep their earlier names: a package written against `log/write` or `event/subscribe` still
// works, admitted by the same descriptor (schema, permission) as the new name.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { callOnce } from '../../../plugins/cli/client';
import { createApprovalMethods } from '../../../plugin-host/client-api/approval-methods';
import {
  AskRequest,
  EventPublishNotification,
  EventSubscribeRequest,
  EventUnsubscribeRequest,
  LogNotification,
  SocketApi,
  type RequestDescriptor,
} from '../../../protocol';
import { serveFor } from '../../plugins/cli/helpers';
import { refusal, type Injected } from '../../harness/inject';
import { injectedCallers } from './injected-callers';

/** A round trip that needs no grant: what was sent before it has been read when it answers. */
async function roundTrip(plugin: Injected): Promise<void> {
  await plugin.client.call(EventUnsubscribeRequest, { names: ['nothing.*'] });
}

/** The same descriptor under one of its earlier names, as an old package would send it. */
function underName<D extends { method: string }>(descriptor: D, name: string): D {
  assert.ok((descriptor as { aliases?: readonly string[] }).aliases?.includes(name), `${descriptor.method} keeps ${name}`);
  return { ...descriptor, method: name };
}

describe('renamed wire methods', () => {
  const as = injectedCallers();

  test('log/write still logs, under the plugin, as logs/write does', async () => {
    const plugin = as('old-logger', []);
    plugin.client.notify(underName(LogNotification, 'log/write'), { level: 'info', msg: 'by the old name' });
    plugin.client.notify(LogNotification, { level: 'info', msg: 'by the new name' });
    await roundTrip(plugin);
    assert.deepEqual(
      plugin.caller.notes.map((n) => n.msg),
      ['by the old name', 'by the new name'],
    );
  });

  test('event/subscribe and event/publish still work, and are refused without the grant as the new names are', async () => {
    const subscriber = as('old-subscriber', ['events']);
    const delivered: string[] = [];
    subscriber.plugin.onNotification('events/deliver', (event: { name: string }) => delivered.push(event.name));
    assert.equal(
      await subscriber.client.call(underName(EventSubscribeRequest, 'event/subscribe') as RequestDescriptor<{ names: string[] }, null>, {
        names: ['old-publisher.*'],
      }),
      null,
    );
    const publisher = as('old-publisher', ['events']);
    publisher.client.notify(underName(EventPublishNotification, 'event/publish'), { name: 'rang' });
    await roundTrip(publisher);
    await roundTrip(subscriber);
    assert.deepEqual(delivered, ['old-publisher.rang']);

    const stranger = as('old-stranger', []);
    const denied = await refusal(stranger.client.call(underName(EventSubscribeRequest, 'event/subscribe'), { names: ['x.*'] }));
    assert.match(denied.message, /may not call events\/subscribe: it needs the permission "events"/);
    assert.equal(stranger.caller.deniedCalls, 1);
  });

  test('approval/ask through the SDK and approval/pending, approval/answer on the socket still reach the kernel under their old names', async (ctx) => {
    const guard = as('old-guard', ['ask']);
    // No client serves cli:old here, so the kernel settles the question at once, as it would by its new name.
    const settled = await guard.client.call(underName(AskRequest, 'approval/ask'), {
      session: 'cli:old',
      question: 'May I?',
      choices: ['yes', 'no'],
      timeoutMs: 10_000,
    });
    assert.deepEqual([settled.choice, settled.by], ['no', 'no-client']);
    const client = as('old-client', ['admin']);
    const server = await serveFor(ctx, createApprovalMethods(client.client));
    assert.deepEqual(await callOnce(server.path, underName(SocketApi.ApprovalPending, 'approval/pending'), {}), { pending: [] });
    await assert.rejects(
      callOnce(server.path, underName(SocketApi.ApprovalAnswer, 'approval/answer'), { id: 'q-00000000', choice: 'yes' }),
      (error: Error & { errorName?: string }) => {
        assert.equal(error.errorName, 'HA_ERR_NOT_FOUND', 'answered by the kernel, not refused as an unknown method');
        return true;
      },
    );
  });
});
