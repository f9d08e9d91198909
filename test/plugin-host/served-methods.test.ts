// A plugin's client methods, each serve(descriptor, handler): the handshake declares them from their descriptors,
// client/invoke finds them by wire name, and what cannot be served is refused where the plugin is written.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { serve, type ClientMethodDefinition, type PluginContext } from '../../plugin-host';
import { ServedMethods } from '../../plugin-host/served-methods';
import { NO_PARAMS, objectSchema, ownerClaim, request } from '../../protocol';

interface EchoParams {
  text: string;
}
const Echo = request<EchoParams, { echo: string }>('weather/echo', { params: objectSchema({ text: { type: 'string' } }, ['text']), permission: null });
const Forecast = request<Record<string, never>, { days: number }>('weather/forecast', {
  params: NO_PARAMS,
  permission: ['llm', 'memory.read'],
  owner: true,
  timeoutMs: 5000,
});
const context = {} as PluginContext;

describe('serving client methods', () => {
  it('declares each method from its descriptor: name, schema, permission, owner and deadline, nothing written again', () => {
    const served = new ServedMethods([serve(Echo, (params) => ({ echo: params.text })), serve(Forecast, () => ({ days: 3 }))]);
    assert.deepEqual(served.declare(), [
      { method: 'weather/echo', params: Echo.params },
      { method: 'weather/forecast', params: NO_PARAMS, permission: ['llm', 'memory.read'], owner: true, timeoutMs: 5000 },
    ]);
    assert.equal(new ServedMethods().declare(), undefined, 'a plugin that serves none declares none');
  });

  it('runs the handler of the method named, with its params and the plugin context', async () => {
    const seen: unknown[] = [];
    const served = new ServedMethods([
      serve(Echo, (params, ctx) => {
        seen.push(ctx);
        return { echo: params.text };
      }),
    ]);
    const echo = served.get('weather/echo');
    assert.ok(echo);
    assert.deepEqual(await echo.run({ text: 'hi' } as never, context), { echo: 'hi' });
    assert.deepEqual(seen, [context]);
    assert.equal(served.get('weather/forecast'), undefined);
    assert.equal(served.get('toString'), undefined, 'only what was served, nothing inherited');
  });

  it('refuses a method served twice and an entry that serve() did not make', () => {
    assert.throws(
      () => new ServedMethods([serve(Echo, (p) => ({ echo: p.text })), serve(Echo, () => ({ echo: '' }))]),
      /clientMethods serves weather\/echo twice; keep one/,
    );
    const handWritten = { 'weather/echo': { params: {}, run: () => null } } as unknown as ClientMethodDefinition;
    assert.throws(() => new ServedMethods([handWritten]), /clientMethods\[0\] is not a served method; make each with serve\(descriptor, handler\)/);
  });

  it("takes a plain-JavaScript package's rows by method name as serve() would make them, and says what a bad row lacks", async () => {
    const rows = {
      'weather/echo': { params: Echo.params, run: (params: EchoParams) => ({ echo: params.text }) },
      'weather/forecast': { params: NO_PARAMS, permission: ['llm', 'memory.read'], owner: true, timeoutMs: 5000, run: () => ({ days: 3 }) },
    };
    const served = new ServedMethods(rows as never);
    assert.deepEqual(served.declare(), new ServedMethods([serve(Echo, (params) => ({ echo: params.text })), serve(Forecast, () => ({ days: 3 }))]).declare());
    assert.deepEqual(await served.get('weather/echo')?.run({ text: 'hi' } as never, context), { echo: 'hi' });
    assert.throws(
      () => new ServedMethods({ 'weather/echo': { run: () => null } } as never),
      /clientMethods\["weather\/echo"\] needs params \(a JSON Schema\) and run\(params, ctx\)/,
    );
    assert.throws(() => new ServedMethods({ 'weather/echo': { params: {} } } as never), /clientMethods\["weather\/echo"\] needs params/);
  });

  it('refuses a descriptor whose checks are functions: they would never cross the handshake', () => {
    const Guarded = request<{ owner?: boolean }, null>('weather/guarded', {
      params: NO_PARAMS,
      permission: null,
      paramPermission: ownerClaim('weather/guarded'),
    });
    assert.throws(
      () => serve(Guarded, () => null),
      /weather\/guarded cannot be served by a plugin: the kernel admits a served method by its schema and permission alone/,
    );
  });

  it('types the handler by the descriptor: params and result that differ from the contract do not compile', () => {
    // @ts-expect-error the result is the descriptor's { echo: string }
    serve(Echo, () => ({ echo: 1 }));
    // @ts-expect-error the params are the descriptor's EchoParams, which has no `city`
    serve(Echo, (params) => ({ echo: params.city as string }));
    serve(Echo, async (params) => ({ echo: params.text }));
  });
});
