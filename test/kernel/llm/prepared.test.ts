// A request built ahead of its call (ProviderManager.prepare, while a turn's stage handlers work) is sent only
// when the call asks for exactly the same; anything else is built anew, and a failure is reported by the call.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { LlmRequest } from '../../../kernel/llm';
import { expectLlmError, setupCounting } from './helpers';

function request(text: string, extra: Partial<LlmRequest> = {}): LlmRequest {
  return {
    messages: [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: text },
    ],
    tools: [{ name: 'add', description: 'adds', parameters: { type: 'object', properties: { a: { type: 'number' } } } }],
    ...extra,
  };
}

test('a request built ahead is the one sent when the call asks for the same', async (t) => {
  const { fake, manager, builds } = await setupCounting(t);
  fake.enqueue({ text: 'one' }, { text: 'two' });
  const req = request('hello');
  manager.prepare(req);
  assert.equal((await manager.complete(req)).text, 'one');
  assert.equal(builds(), 1, 'built once, ahead of the call');
  // The same messages and limits, with tool specs rebuilt as equal objects (the kernel's own tools are).
  const again = request('hello again');
  manager.prepare(again);
  assert.equal(
    (
      await manager.complete({
        ...again,
        tools: again.tools!.map((tool) => ({ ...tool, parameters: JSON.parse(JSON.stringify(tool.parameters)) as Record<string, unknown> })),
      })
    ).text,
    'two',
  );
  assert.equal(builds(), 2);
  assert.deepEqual(
    (fake.requests[1]!.body as { messages: { content: string }[] }).messages.map((m) => m.content),
    ['be brief', 'hello again'],
  );
});

test('a call that asks for anything else is built anew: other messages, a changed message, other tools or limits', async (t) => {
  const { fake, manager, builds } = await setupCounting(t);
  const base = request('hello');
  const changes: [string, (req: LlmRequest) => LlmRequest][] = [
    ['another message', (req) => ({ ...req, messages: [...req.messages, { role: 'user', content: 'more' }] })],
    [
      'the same message object, changed',
      (req) => {
        req.messages[1]!.content = 'changed in place';
        return req;
      },
    ],
    ['other tools', (req) => ({ ...req, tools: [] })],
    [
      'a tool schema with the same keys in another order',
      (req) => ({ ...req, tools: [{ ...req.tools![0]!, parameters: { properties: { a: { type: 'number' } }, type: 'object' } }] }),
    ],
    ['a token limit', (req) => ({ ...req, maxTokens: 5 })],
  ];
  let expected = 0;
  for (const [what, change] of changes) {
    const ahead = request('hello');
    manager.prepare(ahead);
    const asked = change(ahead);
    fake.enqueue({ text: 'ok' });
    await manager.complete(asked);
    expected += 2;
    assert.equal(builds(), expected, `${what}: built ahead, then built again for the call`);
    const body = fake.requests[fake.requests.length - 1]!.body as { messages: { content: string }[]; tools?: unknown[]; max_tokens?: number };
    assert.equal(body.messages.length, asked.messages.length, what);
    assert.equal(body.messages[1]!.content, asked.messages[1]!.content, what);
    assert.equal(body.tools?.length ?? 0, asked.tools!.length, what);
    assert.equal(body.max_tokens, asked.maxTokens, what);
  }
  assert.ok(base.messages.length === 2);
});

test('a request that cannot be built ahead fails at the call with the adapter error, and an edited adapter applies to the call', async (t) => {
  const { fake, manager, dataDir, builds } = await setupCounting(t);
  const file = path.join(dataDir, 'adapters', 'counting.lua');
  const good = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(file, good.replace('built = built + 1', 'built = built + 1\n  error("cannot build this")'));
  manager.prepare(request('hello'));
  const error = await expectLlmError(() => manager.complete(request('hello')));
  assert.equal(error.kind, 'adapter');
  assert.match(error.message, /counting\.lua:\d+\): cannot build this/);
  // Built ahead with one version of the file; the file changes before the call: the call uses the new one.
  fs.writeFileSync(file, good);
  manager.prepare(request('hello'));
  fs.writeFileSync(file, good.replace('built = 0', 'built = 100'));
  fake.enqueue({ text: 'ok' });
  await manager.complete(request('hello'));
  assert.equal(builds(), 101, 'the edited adapter built the request that was sent');
});
