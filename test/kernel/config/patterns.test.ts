// Pattern definitions: a def whose key has `*` segments types every key that matches it.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { ErrorCodes, type ConfigDef } from '../../../protocol';
import { ConfigError, ConfigRegistry, MASK, isPatternKey, matchesPattern, type ConfigChange } from '../../../kernel/config';
import { makeTempConfigFile } from './helpers';

function openRegistry(t: TestContext): ConfigRegistry {
  const registry = ConfigRegistry.open(makeTempConfigFile(t));
  t.after(() => registry.close());
  return registry;
}

const DEFS: ConfigDef[] = [
  { key: 'llm.provider.*.api_key', type: 'password', description: { en: 'API key' } },
  { key: 'llm.provider.*.model', type: 'string' },
  { key: 'llm.provider.*.timeout', type: 'duration', default: 120_000, min: 1000 },
  { key: 'llm.provider.*.max_tokens', type: 'int', min: 1 },
];

function refused(fn: () => unknown, message: RegExp, code: number = ErrorCodes.InvalidValue): void {
  assert.throws(fn, (error: unknown) => error instanceof ConfigError && error.code === code && message.test(error.message));
}

test('matchesPattern: * stands for exactly one segment without dots', () => {
  assert.equal(matchesPattern('llm.provider.*.api_key', 'llm.provider.work.api_key'), true);
  assert.equal(matchesPattern('llm.provider.*.api_key', 'llm.provider.my-box_2.api_key'), true);
  assert.equal(matchesPattern('llm.provider.*.api_key', 'llm.provider.a.b.api_key'), false);
  assert.equal(matchesPattern('llm.provider.*.api_key', 'llm.provider..api_key'), false);
  assert.equal(matchesPattern('llm.provider.*.api_key', 'llm.provider.work.api_keys'), false);
  assert.equal(matchesPattern('a.*.*', 'a.b.c'), true);
  assert.equal(isPatternKey('llm.provider.*.model'), true);
  assert.equal(isPatternKey('llm.default'), false);
});

test('a password under a pattern is never in clear in get, set, list or onChange, yet getValue returns it', (t) => {
  const registry = openRegistry(t);
  registry.define('core', DEFS);
  const changes: ConfigChange[] = [];
  registry.onChange((change) => changes.push(change));
  const set = registry.set('core', 'llm.provider.work.api_key', 'sk-very-secret');
  assert.equal(set.value, MASK);
  assert.equal(set.def?.type, 'password');
  assert.equal(set.def?.key, 'llm.provider.*.api_key', 'the entry carries the pattern def it matched');
  assert.equal(registry.get('core', 'llm.provider.work.api_key').value, MASK);
  assert.equal(registry.getValue('core', 'llm.provider.work.api_key'), 'sk-very-secret');
  const listed = registry.list('core');
  assert.equal(listed.find((e) => e.key === 'llm.provider.work.api_key')?.value, MASK);
  for (const text of [JSON.stringify(listed), JSON.stringify(changes), JSON.stringify(registry.get('core', 'llm.provider.work.api_key'))]) {
    assert.ok(!text.includes('sk-very-secret'), text);
  }
  assert.equal(changes.length, 1);
  assert.equal(changes[0]?.entry.value, MASK);
  registry.unset('core', 'llm.provider.work.api_key');
  assert.equal(changes[1]?.entry.value, '');
});

test('values under a pattern are checked by its type, and its default applies to any matching key', (t) => {
  const registry = openRegistry(t);
  registry.define('core', DEFS);
  assert.equal(registry.set('core', 'llm.provider.work.timeout', '30s').value, 30_000);
  assert.equal(registry.getValue('core', 'llm.provider.home.timeout'), 120_000, 'the default, though nothing is stored');
  const entry = registry.get('core', 'llm.provider.home.timeout');
  assert.deepEqual([entry.value, entry.isSet, entry.def?.type], [120_000, false, 'duration']);
  refused(
    () => registry.set('core', 'llm.provider.work.max_tokens', 'lots'),
    /llm.provider.work.max_tokens: "lots" is not a whole number; use a whole number of at least 1/,
  );
  refused(() => registry.set('core', 'llm.provider.work.timeout', '10ms'), /below the minimum 1s/);
  refused(() => registry.get('core', 'llm.other.work.model'), /is not a known setting/, ErrorCodes.NotFound);
});

test('an exact definition wins over a pattern, and the pattern with fewer * over one with more', (t) => {
  const registry = openRegistry(t);
  registry.define('core', [
    { key: 'a.*.*', type: 'string' },
    { key: 'a.*.c', type: 'int' },
    { key: 'a.b.c', type: 'bool' },
  ]);
  assert.equal(registry.get('core', 'a.b.c').def?.type, 'bool');
  assert.equal(registry.get('core', 'a.x.c').def?.type, 'int');
  assert.equal(registry.get('core', 'a.x.y').def?.type, 'string');
});

test('list shows each pattern def as a template entry (key with *, isSet false) beside the stored keys it covers', (t) => {
  const registry = openRegistry(t);
  registry.define('core', DEFS);
  registry.set('core', 'llm.provider.work.model', 'gpt-4o-mini');
  const entries = registry.list('core');
  assert.deepEqual(
    entries.map((e) => [e.key, e.value, e.isSet, e.def?.key]),
    [
      ['llm.provider.*.api_key', '', false, 'llm.provider.*.api_key'],
      ['llm.provider.*.max_tokens', null, false, 'llm.provider.*.max_tokens'],
      ['llm.provider.*.model', null, false, 'llm.provider.*.model'],
      ['llm.provider.*.timeout', 120_000, false, 'llm.provider.*.timeout'],
      ['llm.provider.work.model', 'gpt-4o-mini', true, 'llm.provider.*.model'],
    ],
  );
  assert.deepEqual(
    registry.patternDefs('core').map((d) => d.key),
    ['llm.provider.*.api_key', 'llm.provider.*.max_tokens', 'llm.provider.*.model', 'llm.provider.*.timeout'],
  );
});

test('a key stored before its pattern was defined is masked once the pattern says password', (t) => {
  const registry = openRegistry(t);
  registry.set('core', 'llm.provider.old.api_key', 'sk-stored-early');
  assert.equal(registry.get('core', 'llm.provider.old.api_key').value, 'sk-stored-early');
  registry.define('core', DEFS);
  assert.equal(registry.get('core', 'llm.provider.old.api_key').value, MASK);
});

test('a pattern is not a setting: get and set of a key with * say what to type instead', (t) => {
  const registry = openRegistry(t);
  registry.define('core', DEFS);
  refused(
    () => registry.set('core', 'llm.provider.*.model', 'x'),
    /llm.provider.\*.model is a pattern, not a setting; replace each \* with a name, like llm.provider.work.model/,
  );
  refused(() => registry.get('core', 'llm.provider.*.model'), /is a pattern, not a setting/);
});

test('define refuses malformed patterns and password defaults under a pattern', (t) => {
  const registry = openRegistry(t);
  refused(() => registry.define('core', [{ key: 'llm.prov*.x', type: 'string' }]), /llm\.prov\*\.x uses \* inside a segment/);
  refused(() => registry.define('core', [{ key: '*.*', type: 'string' }]), /is made only of \*/);
  refused(() => registry.define('core', [{ key: 'Bad.*.x', type: 'string' }]), /is not a valid key pattern/);
  refused(() => registry.define('core', [{ key: 'llm.*.key', type: 'password', default: 'sk-x' }]), /a password default would ship in clear/);
});

test('pattern definitions persist and work in plugin tables too', (t) => {
  const file = makeTempConfigFile(t);
  const first = ConfigRegistry.open(file);
  first.define('weather', [{ key: 'station.*.token', type: 'password' }]);
  first.set('weather', 'station.home.token', 't0p-secret');
  first.close();
  const again = ConfigRegistry.open(file);
  t.after(() => again.close());
  assert.equal(again.get('weather', 'station.home.token').value, MASK);
  assert.equal(again.getValue('weather', 'station.home.token'), 't0p-secret');
  assert.equal(
    again.list('core').some((e) => e.key.startsWith('station.')),
    false,
    'a plugin pattern stays in its table',
  );
});
