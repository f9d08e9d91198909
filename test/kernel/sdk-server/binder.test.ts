// The binder: a descriptor's schema and permission refuse a wrong param and a missing grant with the catalogue's
// codes, counted, through the SDK (inject) and through the cli plugin's real socket server.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ResponseError } from 'vscode-jsonrpc';
import { bindRequest } from '../../../kernel/sdk-server/binder';
import { createMemoryMethods } from '../../../plugin-host/client-api/memory-methods';
import { methodTable, row } from '../../../plugin-host/client-api/methods';
import { callOnce } from '../../../plugins/cli/client';
import {
  ConfigGetRequest,
  ErrorCodes,
  EventPublishNotification,
  InputRequest,
  KnowledgeAddRequest,
  LlmCompleteRequest,
  MAX_INPUT_TEXT_CHARS,
  MemorySearchRequest,
  objectSchema,
  request,
  SocketApi,
  wholeNumberField,
} from '../../../protocol';
import { refusal } from '../../harness/inject';
import { injectedCallers } from './injected-callers';
import { serveFor } from '../../plugins/cli/helpers';

/** A method only this test knows: doubles a number from 1 to 10, for callers granted `llm`. */
const DoubleRequest = request<{ n: number }, { doubled: number }>('test/double', {
  params: objectSchema({ n: wholeNumberField(1, 10) }, ['n']),
  permission: 'llm',
});

describe('the binder', () => {
  const as = injectedCallers((plugin) => bindRequest(plugin.kernel, plugin.caller, DoubleRequest, (p) => ({ doubled: p.n * 2 })));

  test('a new descriptor: right params and grant answer; a wrong param and a missing grant are refused, counted', async () => {
    const granted = as('granted', ['llm']);
    assert.deepEqual(await granted.client.call(DoubleRequest, { n: 4 }), { doubled: 8 });
    const wrong = await refusal(granted.client.call(DoubleRequest, { n: 11 }));
    assert.equal(wrong.code, ErrorCodes.InvalidValue);
    assert.equal(wrong.message, 'test/double refused: params.n must be <= 10');
    assert.equal((wrong.data as { name: string }).name, 'HA_ERR_INVALID_VALUE');
    const extra = await refusal(granted.client.call(DoubleRequest, { n: 1, m: 2 } as { n: number }));
    assert.equal(extra.message, 'test/double refused: params has unknown property "m"');
    assert.equal(granted.caller.deniedCalls, 0);

    const stranger = as('stranger', []);
    const denied = await refusal(stranger.client.call(DoubleRequest, { n: 11 }));
    assert.equal(denied.code, ErrorCodes.PermissionDenied, 'the grant is checked before the params');
    assert.equal(denied.message, 'plugin "stranger" may not call test/double: it needs the permission "llm", which its manifest does not grant');
    assert.equal(stranger.caller.deniedCalls, 1);
    assert.deepEqual(stranger.caller.notes, [{ level: 'warn', msg: 'denied test/double: needs permission "llm"' }]);
  });

  test('the same descriptor on the socket: a wrong param is refused there, a missing grant by the kernel behind it', async (ctx) => {
    const stranger = as('socket-stranger', []);
    const server = await serveFor(ctx, methodTable(row(DoubleRequest, (p) => stranger.client.call(DoubleRequest, p))));
    await assert.rejects(callOnce(server.path, DoubleRequest, { n: 0 }), (error: Error & { code?: number; errorName?: string }) => {
      assert.equal(error.code, ErrorCodes.InvalidRequest);
      assert.equal(error.errorName, 'HA_ERR_INVALID_REQUEST');
      assert.match(error.message, /invalid params for test\/double: params\.n must be >= 1/);
      return true;
    });
    assert.equal(stranger.caller.deniedCalls, 0, 'a refused line never reaches the kernel');
    await assert.rejects(callOnce(server.path, DoubleRequest, { n: 3 }), (error: Error & { code?: number; errorName?: string }) => {
      assert.equal(error.code, ErrorCodes.PermissionDenied);
      assert.equal(error.errorName, 'HA_ERR_PERMISSION_DENIED');
      return true;
    });
    assert.equal(stranger.caller.deniedCalls, 1);
  });

  test("a real socket method forwards the kernel's refusal of a caller without the grant", async (ctx) => {
    const reader = as('no-memory', ['knowledge']);
    const server = await serveFor(ctx, createMemoryMethods(reader.client));
    await assert.rejects(callOnce(server.path, SocketApi.MemorySearch, { query: 'plumber' }), (error: Error & { errorName?: string }) => {
      assert.equal(error.errorName, 'HA_ERR_PERMISSION_DENIED');
      assert.match(error.message, /needs the permission "memory\.read"/);
      return true;
    });
    await assert.rejects(callOnce(server.path, SocketApi.MemorySearch, { query: '   ' }), /params\.query "   " is not a text with something besides spaces/);
    assert.equal(reader.caller.deniedCalls, 1);
  });

  test('SDK methods: bounds from protocol/limits.ts, permissions that depend on the params, dropped notifications', async () => {
    const plugin = as('limited', ['io', 'knowledge', 'events', 'llm']);
    const long = await refusal(plugin.client.call(InputRequest, { session: 's', text: 'x'.repeat(MAX_INPUT_TEXT_CHARS + 1), inputId: 'i' }));
    assert.equal(long.code, ErrorCodes.InvalidValue);
    assert.equal(long.message, `io/input refused: params.text is ${MAX_INPUT_TEXT_CHARS + 1} characters; the most is ${MAX_INPUT_TEXT_CHARS}`);
    const missing = await refusal(plugin.client.call(InputRequest, { session: 's', text: 'hi' } as never));
    assert.equal(missing.message, 'io/input refused: params needs "inputId"');
    const neither = await refusal(plugin.client.call(KnowledgeAddRequest, { name: 'a.md' }));
    assert.equal(neither.message, 'knowledge/add refused: params needs "path", or "name" and "text"');
    const byPath = await refusal(plugin.client.call(KnowledgeAddRequest, { path: '/etc/hostname' }));
    assert.equal(byPath.code, ErrorCodes.PermissionDenied);
    assert.match(byPath.message, /may not call knowledge\/add with a path: it needs the permission "admin"/);
    const others = await refusal(plugin.client.call(ConfigGetRequest, { scope: 'core', key: 'core.log.level' }));
    assert.match(others.message, /may not call config\/get: it needs the permission "config.others" or "admin"/);
    const own = await plugin.client.call(ConfigGetRequest, { key: 'anything' }).catch((error: ResponseError<unknown>) => error);
    assert.notEqual((own as ResponseError<unknown>).code, ErrorCodes.PermissionDenied, 'its own table needs no permission');
    const prompt = await refusal(plugin.client.call(LlmCompleteRequest, { messages: [{ role: 'tool' as 'user', content: 'x' }] }));
    assert.equal(prompt.message, 'llm/complete refused: params.messages[0].role must be one of system, user, assistant');
    assert.equal(plugin.caller.deniedCalls, 2);

    plugin.client.notify(EventPublishNotification, { name: 'Not A Name' });
    await plugin.client.call(MemorySearchRequest, { query: 'x' }).catch(() => undefined); // a round trip: the notification was read before it
    assert.ok(
      plugin.caller.notes.some((n) => n.msg.startsWith('dropped: events/publish refused: params.name "Not A Name" is not an event name')),
      JSON.stringify(plugin.caller.notes),
    );
  });
});
