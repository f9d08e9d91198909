import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { displayKey, displayValue, parseConfigKey, renderConfigTable } from '../../../../plugins/cli/commands/config';
import { UsageError } from '../../../../plugins/cli/commands/types';

describe('config keys and values', () => {
  it('reads core.KEY as a core key and PLUGIN:KEY as a plugin table key', () => {
    assert.deepEqual(parseConfigKey('core.log.level'), { scope: 'core', key: 'core.log.level' });
    assert.deepEqual(parseConfigKey('cli:max_clients'), { scope: 'cli', key: 'max_clients' });
    assert.throws(() => parseConfigKey(':x'), UsageError);
    assert.throws(() => parseConfigKey('cli:'), UsageError);
  });

  it('writes keys back the way they are typed', () => {
    assert.equal(displayKey({ scope: 'core', key: 'core.log.level' }), 'core.log.level');
    assert.equal(displayKey({ scope: 'cli', key: 'max_clients' }), 'cli:max_clients');
  });

  it('masks a password even if the server sent it in clear', () => {
    const entry = { scope: 'x', key: 'token', value: 'clear-secret', isSet: true, def: { key: 'token', type: 'password' as const } };
    assert.equal(displayValue(entry), '********');
    assert.ok(!renderConfigTable([entry]).includes('clear-secret'));
  });

  it('shows values by type: strings as they are, the rest as JSON, nothing as -', () => {
    assert.equal(displayValue({ scope: 'core', key: 'a', value: 'warn', isSet: true }), 'warn');
    assert.equal(displayValue({ scope: 'core', key: 'b', value: { x: 1 }, isSet: true }), '{"x":1}');
    const table = renderConfigTable([{ scope: 'cli', key: 'socket_path', value: null, isSet: false, def: { key: 'socket_path', type: 'path' } }]);
    assert.match(table.split('\n')[1] ?? '', /^cli:socket_path\s+path\s+-\s+default$/);
  });
});
