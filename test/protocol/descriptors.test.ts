// Every descriptor of the contract: its schema compiles under ajv's strict mode, its permissions exist, and the
// socket's descriptors each name a method of their own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Ajv from 'ajv';
import * as protocol from '../../protocol';
import { PERMISSIONS, SocketApi, STAGE_PATCH_FIELDS, STAGES, type JsonSchema } from '../../protocol';
import { schemaProblem } from '../../protocol/runtime/schema-check';

/** The exported values that are descriptors: a method name and a params schema. */
function descriptors(): [string, { method: string; params: JsonSchema; permission?: readonly string[] }][] {
  return Object.entries(protocol).filter(([, value]) => typeof value === 'object' && value !== null && 'method' in value && 'params' in value) as never;
}

test("every descriptor's params schema compiles under ajv strict mode and names only real permissions", () => {
  const found = descriptors();
  assert.ok(found.length >= 38, `found ${found.length} descriptors`);
  for (const [name, descriptor] of found) {
    const strict = new Ajv({ strict: true, allowUnionTypes: true });
    assert.doesNotThrow(() => strict.compile(descriptor.params), `${name} (${descriptor.method})`);
    for (const permission of descriptor.permission ?? []) assert.ok((PERMISSIONS as readonly string[]).includes(permission), `${name} needs "${permission}"`);
  }
  for (const [field, schema] of Object.entries(STAGE_PATCH_FIELDS)) assert.doesNotThrow(() => new Ajv({ strict: true }).compile(schema), field);
});

test('every SDK method a plugin calls but the lifecycle, log and heartbeat ones needs a permission or says why not', () => {
  const free = descriptors()
    .filter(([name, d]) => (name.endsWith('Request') || name.endsWith('Notification') ? d.permission?.length === 0 : false))
    .map(([, d]) => d.method)
    .sort();
  // Kernel → plugin methods, the log, unsubscribing, and config (its own table is free; the descriptor asks more for others').
  assert.deepEqual(free, [
    'client/invoke',
    'config/get',
    'config/list',
    'config/set',
    'config/unset',
    'events/deliver',
    'events/unsubscribe',
    'health/ping',
    'io/output',
    'logs/write',
    'plugin/exit',
    'plugin/initialize',
    'plugin/initialized',
    'plugin/shutdown',
    'stage/invoke',
    'tool/invoke',
  ]);
});

test("the socket's descriptors compile under ajv strict mode, each names a method of its own, and none asks a permission", () => {
  const methods = Object.values(SocketApi).map((d) => d.method);
  assert.equal(new Set(methods).size, methods.length, methods.join(', '));
  for (const [key, descriptor] of Object.entries(SocketApi)) {
    assert.equal(descriptor.kind, 'request', key);
    assert.doesNotThrow(() => new Ajv({ strict: true, allowUnionTypes: true }).compile(descriptor.params), key);
    // Whoever may open the socket may call; the kernel checks what the serving plugin may do behind it.
    assert.deepEqual(descriptor.permission, [], key);
  }
});

test('each field a stage lets a handler write has a schema; a field of another shape is refused', () => {
  for (const stage of STAGES) for (const field of stage.writes) assert.ok(field in STAGE_PATCH_FIELDS, `${stage.name}.${field}`);
  assert.equal(schemaProblem(STAGE_PATCH_FIELDS.deny, 'yes', 'deny'), 'deny must be boolean, not a string');
  assert.equal(schemaProblem(STAGE_PATCH_FIELDS.context_messages, [{ role: 'user', content: 'hi', source: 'kept' }], 'context_messages'), undefined);
  assert.match(schemaProblem(STAGE_PATCH_FIELDS.tool_calls, [{ args: {} }], 'tool_calls') ?? '', /tool_calls\[0\] needs "name"/);
});
