import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test, type TestContext } from 'node:test';
import { ErrorCodes, type ConfigDef } from '../../../protocol';
import { ConfigError, ConfigRegistry, MASK, type ConfigChange } from '../../../kernel/config';
import { makeTempConfigFile, withRawDatabase } from './helpers';

function openRegistry(t: TestContext): { registry: ConfigRegistry; file: string } {
  const file = makeTempConfigFile(t);
  const registry = ConfigRegistry.open(file);
  t.after(() => registry.close());
  return { registry, file };
}

function assertConfigError(fn: () => unknown, message: RegExp, code: number = ErrorCodes.InvalidValue): ConfigError {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof ConfigError, `expected a ConfigError, got ${String(caught)}`);
  assert.equal(caught.code, code);
  assert.match(caught.message, message);
  return caught;
}

const TYPED_DEFS: ConfigDef[] = [
  { key: 'name', type: 'string' },
  { key: 'home', type: 'path' },
  { key: 'token', type: 'password' },
  { key: 'retries', type: 'int', min: 0, max: 10, default: 3 },
  { key: 'ratio', type: 'float', min: 0, max: 1 },
  { key: 'verbose', type: 'bool', default: false },
  { key: 'mode', type: 'enum', options: ['fast', 'slow'], default: 'slow' },
  { key: 'wait', type: 'duration', min: 100, default: 30_000 },
  { key: 'extra', type: 'json', default: {} },
];

test('open creates the file in WAL mode with the fixed tables, readable only by its owner', (t) => {
  const { registry, file } = openRegistry(t);
  registry.set('core', 'core.x', 1);
  withRawDatabase(file, (db) => {
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
    const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
    assert.deepEqual(
      tables.map((r) => r.name),
      ['config', 'config_defs', 'plugin_state'],
    );
  });
  if (process.platform !== 'win32') assert.equal(fs.statSync(file).mode & 0o077, 0);
});

test('set accepts each type in its own form and stores the checked value', (t) => {
  const { registry } = openRegistry(t);
  registry.define('demo', TYPED_DEFS);
  const cases: [string, unknown, unknown][] = [
    ['name', 'hello', 'hello'],
    ['home', '/srv/home', '/srv/home'],
    ['retries', 7, 7],
    ['ratio', 0.25, 0.25],
    ['verbose', true, true],
    ['mode', 'fast', 'fast'],
    ['wait', 1500, 1500],
    ['extra', { a: [1, 'b', null] }, { a: [1, 'b', null] }],
  ];
  for (const [key, input, stored] of cases) {
    const entry = registry.set('demo', key, input);
    assert.deepEqual(entry.value, stored, key);
    assert.equal(entry.isSet, true);
    assert.deepEqual(registry.getValue('demo', key), stored, key);
  }
});

test('string values typed on a command line are parsed by the key type', (t) => {
  const { registry } = openRegistry(t);
  registry.define('demo', TYPED_DEFS);
  const cases: [string, string, unknown][] = [
    ['retries', '4', 4],
    ['retries', ' +10 ', 10],
    ['ratio', '0.5', 0.5],
    ['ratio', '1e-1', 0.1],
    ['wait', '250ms', 250],
    ['wait', '1h30m', 5_400_000],
    ['wait', '2500', 2500],
    ['mode', ' fast ', 'fast'],
    ['extra', '{"a": 1}', { a: 1 }],
    ['extra', '"text"', 'text'],
    ['extra', '12', 12],
    ['name', '42', '42'],
  ];
  for (const [key, text, parsed] of cases) assert.deepEqual(registry.set('demo', key, text).value, parsed, `${key}=${text}`);
  for (const word of ['true', 'TRUE', 'yes', 'on', '1']) assert.equal(registry.set('demo', 'verbose', word).value, true, word);
  for (const word of ['false', 'No', 'off', '0']) assert.equal(registry.set('demo', 'verbose', word).value, false, word);
});

test('a bad value is refused with what was wrong, what the key expects and an example', (t) => {
  const { registry } = openRegistry(t);
  registry.define('demo', TYPED_DEFS);
  const cases: [string, unknown, RegExp][] = [
    ['name', 42, /^demo:name: 42 is not a string; use a string, like "hello"$/],
    ['home', 'relative/dir', /^demo:home: "relative\/dir" is not an absolute path; use an absolute path, like \//],
    ['home', 5, /is not a path/],
    ['retries', '2.5', /^demo:retries: "2\.5" is not a whole number; use a whole number from 0 to 10, like 3$/],
    ['retries', 11, /^demo:retries: 11 is above the maximum 10; use a whole number from 0 to 10, like 3$/],
    ['retries', '-1', /-1 is below the minimum 0/],
    ['ratio', 'half', /"half" is not a number; use a number from 0 to 1/],
    ['ratio', Number.NaN, /is not a number/],
    ['verbose', 'maybe', /"maybe" is not true or false; use true or false \(yes\/no, on\/off and 1\/0 work too\)/],
    ['verbose', 2, /2 is not true or false/],
    ['mode', 'medium', /^demo:mode: "medium" is not one of the options; use one of fast, slow$/],
    [
      'wait',
      'soon',
      /^demo:wait: "soon" is not a duration; use a duration of at least 100ms, like 500ms, 90s, 2m, 1h30m, 1\.5h or 2d \(a bare number is milliseconds; default 30s\)$/,
    ],
    ['wait', '50ms', /50ms is below the minimum 100ms/],
    ['wait', -5, /is not a duration/],
    ['extra', '{broken', /"\{broken" is not valid JSON/],
    ['extra', { n: Infinity }, /cannot be stored as JSON/],
  ];
  for (const [key, value, message] of cases) {
    const err = assertConfigError(() => registry.set('demo', key, value), message);
    assert.equal(err.scope, 'demo');
    assert.equal(err.key, key);
  }
  assert.equal(registry.get('demo', 'retries').isSet, false, 'a refused value is not stored');
});

test('the core duration error reads as a person would want it', (t) => {
  const { registry } = openRegistry(t);
  registry.define('core', [{ key: 'core.supervisor.restart_base', type: 'duration', default: 1000, min: 0 }]);
  const err = assertConfigError(
    () => registry.set('core', 'core.supervisor.restart_base', 'fast'),
    /^core\.supervisor\.restart_base: "fast" is not a duration; use a duration, like 500ms, 90s, 2m, 1h30m, 1\.5h or 2d \(a bare number is milliseconds; default 1s\)$/,
  );
  assert.equal(err.toResponseError().code, ErrorCodes.InvalidValue);
  assert.deepEqual(err.toResponseError().data, { name: 'HA_ERR_INVALID_VALUE', scope: 'core', key: 'core.supervisor.restart_base' });
});

test('a failed set keeps the previous value', (t) => {
  const { registry } = openRegistry(t);
  registry.define('demo', TYPED_DEFS);
  registry.set('demo', 'retries', 5);
  assert.throws(() => registry.set('demo', 'retries', 'many'), ConfigError);
  assert.equal(registry.getValue('demo', 'retries'), 5);
});

test('undeclared keys are stored as given, a string staying a string', (t) => {
  const { registry } = openRegistry(t);
  assert.equal(registry.set('demo', 'free.text', '42').value, '42');
  assert.equal(registry.set('demo', 'free.number', 42).value, 42);
  assert.deepEqual(registry.set('demo', 'free.object', { a: true }).value, { a: true });
  assert.equal(registry.get('demo', 'free.text').def, undefined);
  assertConfigError(() => registry.set('demo', 'free.bad', undefined), /no value was given/);
  assertConfigError(() => registry.set('demo', 'free.bad', () => 1), /cannot be stored as JSON/);
  assertConfigError(() => registry.set('demo', 'Bad Key', 1), /"Bad Key" is not a valid setting key/);
});

test('define refuses definitions that could not work', (t) => {
  const { registry } = openRegistry(t);
  const cases: [ConfigDef[], RegExp][] = [
    [[{ key: 'level', type: 'enum' }], /demo:level is an enum without options/],
    [[{ key: 'level', type: 'enum', options: [] }], /without options/],
    [[{ key: 'level', type: 'enum', options: ['a'], default: 'b' }], /default that fails its own check: "b" is not one of the options/],
    [[{ key: 'n', type: 'int', default: 'lots' }], /default that fails its own check: "lots" is not a whole number/],
    [[{ key: 'n', type: 'int', min: 5, default: 1 }], /1 is below the minimum 5/],
    [[{ key: 'n', type: 'int', min: 5, max: 1 }], /min 5 above max 1/],
    [[{ key: 'p', type: 'path', default: 'data' }], /"data" is not an absolute path/],
    [[{ key: 'secret', type: 'password', default: 'hunter2' }], /password with a default/],
    [[{ key: 'x', type: 'colour' as never }], /unknown type "colour"/],
    [
      [
        { key: 'a', type: 'int' },
        { key: 'a', type: 'int' },
      ],
      /defined twice/,
    ],
    [[{ key: 'UPPER', type: 'int' }], /"UPPER" is not a valid setting key/],
  ];
  for (const [defs, message] of cases) assertConfigError(() => registry.define('demo', defs), message);
  assert.deepEqual(registry.list('demo'), [], 'nothing from a refused define is recorded');
});

test('define stores defaults in stored form and upserts', (t) => {
  const { registry } = openRegistry(t);
  registry.define('demo', [{ key: 'wait', type: 'duration', default: '30s' }]);
  assert.equal(registry.getValue('demo', 'wait'), 30_000);
  registry.define('demo', [{ key: 'wait', type: 'duration', default: '1m', description: { zh: '等待', en: 'wait' } }]);
  const entry = registry.get('demo', 'wait');
  assert.equal(entry.value, 60_000);
  assert.deepEqual(entry.def, { key: 'wait', type: 'duration', default: 60_000, description: { zh: '等待', en: 'wait' } });
});

test('list is sorted and holds declared-but-unset keys and stored-but-undeclared keys', (t) => {
  const { registry } = openRegistry(t);
  registry.define('demo', [
    { key: 'b.declared', type: 'int', default: 2 },
    { key: 'd.declared', type: 'int', default: 4 },
  ]);
  registry.set('demo', 'd.declared', 40);
  registry.set('demo', 'a.free', 'x');
  registry.set('demo', 'c.free', 'y');
  const listed = registry.list('demo').map((e) => [e.key, e.value, e.isSet, e.def !== undefined]);
  assert.deepEqual(listed, [
    ['a.free', 'x', true, false],
    ['b.declared', 2, false, true],
    ['c.free', 'y', true, false],
    ['d.declared', 40, true, true],
  ]);
});

test('get throws NotFound for a key neither declared nor stored', (t) => {
  const { registry } = openRegistry(t);
  const err = assertConfigError(() => registry.get('demo', 'nothing.here'), /demo:nothing\.here is not a known setting/, ErrorCodes.NotFound);
  assert.equal(err.key, 'nothing.here');
  assert.equal(registry.getValue('demo', 'nothing.here'), undefined);
});

test('passwords never appear in clear in get, list, set or onChange output, yet getValue returns them', (t) => {
  const { registry } = openRegistry(t);
  const secret = 'correct-horse-battery-staple';
  registry.define('mail', [
    { key: 'smtp.password', type: 'password' },
    { key: 'smtp.user', type: 'string' },
  ]);
  const changes: ConfigChange[] = [];
  registry.onChange((c) => changes.push(c));

  assert.deepEqual(registry.get('mail', 'smtp.password').value, '');
  const setEntry = registry.set('mail', 'smtp.password', secret);
  registry.set('mail', 'smtp.user', 'me');

  const shown = [setEntry, registry.get('mail', 'smtp.password'), registry.list('mail'), changes];
  for (const output of shown) assert.ok(!JSON.stringify(output).includes(secret), JSON.stringify(output));
  assert.equal(registry.get('mail', 'smtp.password').value, MASK);
  assert.equal(registry.get('mail', 'smtp.password').isSet, true);
  assert.equal(changes[0]?.entry.value, MASK);
  assert.equal(registry.getValue('mail', 'smtp.password'), secret);

  const notString = 987654321;
  const err = assertConfigError(() => registry.set('mail', 'smtp.password', notString), /^mail:smtp\.password: the value is not a string/);
  assert.ok(!err.message.includes(String(notString)), 'a refused password is not echoed');

  registry.unset('mail', 'smtp.password');
  assert.equal(registry.get('mail', 'smtp.password').value, '');
  assert.equal(changes.at(-1)?.entry.value, '');
});

test('a value stored before its key was declared a password is masked once declared', (t) => {
  const { registry } = openRegistry(t);
  registry.set('demo', 'api.key', 'sk-live-123');
  registry.define('demo', [{ key: 'api.key', type: 'password' }]);
  assert.ok(!JSON.stringify(registry.list('demo')).includes('sk-live-123'));
  assert.equal(registry.getValue('demo', 'api.key'), 'sk-live-123');
});

test('a plugin table is separate from core', (t) => {
  const { registry, file } = openRegistry(t);
  registry.set('core', 'shared.key', 'core value');
  registry.set('weather', 'shared.key', 'weather value');
  registry.set('home-assistant', 'shared.key', 'ha value');
  assert.equal(registry.getValue('core', 'shared.key'), 'core value');
  assert.equal(registry.getValue('weather', 'shared.key'), 'weather value');
  assert.equal(registry.getValue('home-assistant', 'shared.key'), 'ha value');
  assert.deepEqual(
    registry.list('core').map((e) => e.key),
    ['shared.key'],
  );
  assert.deepEqual(registry.scopes(), ['core', 'home-assistant', 'weather']);
  withRawDatabase(file, (db) => {
    const row = db.prepare<[], { value: string }>('SELECT value FROM config_home_assistant').get();
    assert.equal(row?.value, '"ha value"');
    assert.equal(db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM config').get()?.n, 1);
  });
});

test('values, definitions and enabled state persist across close and reopen', (t) => {
  const file = makeTempConfigFile(t);
  const first = ConfigRegistry.open(file);
  first.define('weather', [{ key: 'units', type: 'enum', options: ['metric', 'imperial'], default: 'metric' }]);
  first.set('weather', 'units', 'imperial');
  first.set('core', 'core.log.level', 'debug');
  first.setEnabled('weather', false);
  first.setEnabled('clock', true);
  first.close();

  const second = ConfigRegistry.open(file);
  t.after(() => second.close());
  assert.equal(second.getValue('weather', 'units'), 'imperial');
  assert.deepEqual(second.get('weather', 'units').def?.options, ['metric', 'imperial']);
  assert.equal(second.getValue('core', 'core.log.level'), 'debug');
  assert.equal(second.isEnabled('weather'), false);
  assert.equal(second.isEnabled('clock'), true);
  assert.equal(second.isEnabled('never-seen'), undefined);
  second.setEnabled('weather', true);
  assert.equal(second.isEnabled('weather'), true);
  withRawDatabase(file, (db) => assert.equal(db.pragma('integrity_check', { simple: true }), 'ok'));
});

test('bad plugin names are refused everywhere and touch nothing', (t) => {
  const { registry, file } = openRegistry(t);
  registry.set('core', 'core.keep', 'kept');
  const badScopes = ['x; DROP TABLE config', 'Core', 'x"y', '-x', 'x-', '', 'a'.repeat(65), 'my_plugin', 'defs'];
  for (const bad of badScopes) {
    assertConfigError(() => registry.set(bad, 'k', 1), /plugin name/);
    assertConfigError(() => registry.define(bad, []), /plugin name/);
    assertConfigError(() => registry.list(bad), /plugin name/);
    assertConfigError(() => registry.getValue(bad, 'k'), /plugin name/);
    assertConfigError(() => registry.dropScope(bad), /plugin name/);
    assertConfigError(() => registry.setEnabled(bad, true), /plugin name/);
  }
  for (const reserved of ['core', 'defs']) {
    assertConfigError(() => registry.dropScope(reserved), /cannot be a plugin name/);
    assertConfigError(() => registry.setEnabled(reserved, true), /cannot be a plugin name/);
  }
  assert.equal(registry.getValue('core', 'core.keep'), 'kept');
  assert.equal(registry.set('a'.repeat(64), 'k', 1).scope, 'a'.repeat(64));
  withRawDatabase(file, (db) => {
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
    const names = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((r) => r.name);
    assert.deepEqual(names, ['config', `config_${'a'.repeat(64)}`, 'config_defs', 'plugin_state']);
  });
});

test('unset brings the default back and notifies only when something was stored', (t) => {
  const { registry } = openRegistry(t);
  registry.define('demo', TYPED_DEFS);
  const changes: ConfigChange[] = [];
  const stop = registry.onChange((c) => changes.push(c));
  registry.set('demo', 'retries', 9);
  const entry = registry.unset('demo', 'retries');
  assert.deepEqual([entry.value, entry.isSet], [3, false]);
  registry.unset('demo', 'retries');
  registry.unset('nowhere', 'k');
  assert.deepEqual(
    changes.map((c) => [c.scope, c.key, c.entry.value, c.entry.isSet]),
    [
      ['demo', 'retries', 9, true],
      ['demo', 'retries', 3, false],
    ],
  );
  stop();
  registry.set('demo', 'retries', 1);
  assert.equal(changes.length, 2, 'a stopped listener is not called');
});

test('a throwing listener neither undoes the write nor silences the others', async (t) => {
  const { registry } = openRegistry(t);
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(w.message);
  process.on('warning', onWarning);
  t.after(() => process.off('warning', onWarning));
  let called = 0;
  registry.onChange(() => {
    throw new Error('listener broke');
  });
  registry.onChange(() => called++);
  registry.set('demo', 'k', 1);
  assert.equal(called, 1);
  assert.equal(registry.getValue('demo', 'k'), 1);
  await new Promise((resolve) => setImmediate(resolve));
  assert.ok(
    warnings.some((w) => w.includes('listener broke') && w.includes('demo:k')),
    JSON.stringify(warnings),
  );
});

test('dropScope removes a plugin table and its definitions, leaving core alone', (t) => {
  const { registry, file } = openRegistry(t);
  registry.define('core', [{ key: 'core.a', type: 'int', default: 1 }]);
  registry.define('weather', [{ key: 'units', type: 'string', default: 'metric' }]);
  registry.set('weather', 'units', 'imperial');
  registry.set('weather', 'free', 1);
  registry.dropScope('weather');
  assert.deepEqual(registry.list('weather'), []);
  assert.deepEqual(registry.scopes(), ['core']);
  assert.equal(registry.getValue('core', 'core.a'), 1);
  withRawDatabase(file, (db) => {
    assert.equal(db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'config_weather'").get(), undefined);
    assert.equal(db.prepare("SELECT 1 FROM config_defs WHERE scope = 'weather'").get(), undefined);
  });
});
