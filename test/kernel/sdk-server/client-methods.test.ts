// Client methods a plugin declares at its handshake: what is refused there (with a note in its log) and what only
// its first call finds, since schemas are compiled on first use rather than at every handshake.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InitializeResult, JsonSchema } from '../../../protocol';
import { compileProblem, schemaShapeProblem } from '../../../protocol/runtime/schema-check';
import { admitClientMethods } from '../../../kernel/sdk-server/client-methods';

describe('client methods declared at a handshake', () => {
  it('keeps well-formed ones and refuses, with a note each, a bad name, a kernel method, a twin and params that are no schema', () => {
    const notes: string[] = [];
    const declaration = {
      clientMethods: [
        { method: 'weather/today', params: { type: 'object', properties: { city: { type: 'string' } } } },
        { method: 'Weather', params: { type: 'object' } },
        { method: 'kernel/status', params: { type: 'object' } },
        { method: 'weather/today', params: { type: 'object' } },
        { method: 'weather/bad', params: { type: 'objekt' } },
        { method: 'weather/later', params: { type: 'object', madeUp: true } },
      ],
    } as unknown as InitializeResult;
    admitClientMethods({ note: (_level, text) => notes.push(text) }, declaration);
    assert.deepEqual(
      declaration.clientMethods?.map((d) => d.method),
      ['weather/today', 'weather/later'],
    );
    assert.equal(notes.length, 4);
    assert.match(notes[0]!, /^client method "Weather" refused: its name must be noun\/verb/);
    assert.match(notes[1]!, /^client method "kernel\/status" refused: the kernel serves that method itself/);
    assert.equal(notes[2], 'client method "weather/today" refused: declared twice');
    assert.match(
      notes[3]!,
      /^client method "weather\/bad" refused: its params schema is not a JSON Schema \(schema\/type must be equal to one of the allowed values/,
    );
  });

  it('takes a permission by name or a list of them, and refuses one that does not exist', () => {
    const notes: string[] = [];
    const declaration = {
      clientMethods: [
        { method: 'weather/one', params: { type: 'object' }, permission: 'llm' },
        { method: 'weather/either', params: { type: 'object' }, permission: ['llm', 'net'] },
        { method: 'weather/odd', params: { type: 'object' }, permission: ['llm', 'telepathy'] },
        { method: 'weather/junk', params: { type: 'object' }, permission: 7 },
      ],
    } as unknown as InitializeResult;
    admitClientMethods({ note: (_level, text) => notes.push(text) }, declaration);
    assert.deepEqual(
      declaration.clientMethods?.map((d) => d.method),
      ['weather/one', 'weather/either'],
    );
    assert.match(notes[0]!, /^client method "weather\/odd" refused: its permission "telepathy" is none of admin, /);
    assert.match(notes[1]!, /^client method "weather\/junk" refused: its permission 7 is none of /);
  });

  it("leaves strict mode's refusals to the first call, which names the keyword", () => {
    const madeUp = { type: 'object', madeUp: true } as JsonSchema;
    assert.equal(schemaShapeProblem(madeUp), undefined, 'a JSON Schema by the meta-schema');
    assert.match(compileProblem(madeUp) ?? '', /unknown keyword: "madeUp"/);
    assert.equal(compileProblem({ type: 'object', properties: { city: { type: 'string' } } } as JsonSchema), undefined);
    assert.equal(schemaShapeProblem(['not', 'a', 'schema']), 'it is not an object');
  });
});
