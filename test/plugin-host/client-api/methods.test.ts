// The client protocol's table is SocketApi's: every socket descriptor has its row, and the table serves nothing else,
// so a descriptor added without a row (or a row without a descriptor) fails here.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createClientMethods } from '../../../plugin-host/client-api';
import { servedNames } from '../../../plugin-host/client-api/methods';
import type { PluginContext } from '../../../plugin-host/sdk';
import { SocketApi } from '../../../protocol';
import { silentLog } from '../../plugins/cli/fakes';

/** Enough of a plugin context to build the table; no row is run. */
function idleContext(): Pick<PluginContext, 'name' | 'kernel' | 'io' | 'log' | 'events'> {
  const unused = (): never => assert.fail('no call is made while building the table');
  return {
    name: 'cli',
    kernel: { call: unused, notify: unused } as unknown as PluginContext['kernel'],
    io: {} as PluginContext['io'],
    log: silentLog,
    events: {} as PluginContext['events'],
  };
}

describe('the client protocol table', () => {
  it("has one row for each SocketApi descriptor, under its name and its earlier names, with the descriptor's params schema, and no other", () => {
    const { methods } = createClientMethods(idleContext());
    const declared = Object.values(SocketApi)
      .flatMap((d) => [d.method, ...(d.aliases ?? [])])
      .sort();
    assert.deepEqual(Object.keys(methods).sort(), declared);
    for (const descriptor of Object.values(SocketApi)) {
      for (const name of [descriptor.method, ...(descriptor.aliases ?? [])]) assert.equal(methods[name]?.params, descriptor.params, name);
    }
    assert.equal(methods['approval/answer'], methods['approvals/answer'], 'an earlier name runs the same row');
    assert.deepEqual(
      servedNames(methods).sort(),
      Object.values(SocketApi)
        .map((d) => d.method)
        .sort(),
      'a listing of what the socket serves names each method once, by its name',
    );
  });
});
