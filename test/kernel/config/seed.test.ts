import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { CORE_DEFS, ConfigError, ConfigRegistry, seedDefaults } from '../../../kernel/config';
import { ErrorCodes } from '../../../protocol';
import { makeTempConfigFile, withRawDatabase } from './helpers';

test('seedDefaults stores every path under the data dir and returns them', (t) => {
  const file = makeTempConfigFile(t);
  const dataDir = path.dirname(file);
  const registry = ConfigRegistry.open(file);
  t.after(() => registry.close());

  const paths = seedDefaults(registry, dataDir);
  assert.deepEqual(paths, {
    pluginDir: path.join(dataDir, 'plugins'),
    memoryGraph: path.join(dataDir, 'memory', 'graph.db'),
    memoryText: path.join(dataDir, 'memory', 'text'),
    memoryDocuments: path.join(dataDir, 'memory', 'documents'),
    knowledge: path.join(dataDir, 'knowledge'),
    logs: path.join(dataDir, 'logs'),
    skills: path.join(dataDir, 'skills'),
  });
  const stored = registry.list('core').filter((e) => e.isSet);
  assert.deepEqual(
    stored.map((e) => e.key),
    [
      'core.data.dir',
      'core.knowledge.path',
      'core.log.path',
      'core.memory.documents',
      'core.memory.graph',
      'core.memory.text',
      'core.plugin.dir',
      'core.skills.path',
    ],
  );
  assert.ok(stored.every((e) => e.def?.type === 'path' && e.def.category === 'paths'));
});

test('seedDefaults defines every core setting with its default', (t) => {
  const file = makeTempConfigFile(t);
  const registry = ConfigRegistry.open(file);
  t.after(() => registry.close());
  seedDefaults(registry, path.dirname(file));

  const listed = new Map(registry.list('core').map((e) => [e.key, e]));
  assert.equal(listed.size, CORE_DEFS.length);
  const defaults: [string, unknown][] = [
    ['core.supervisor.handshake_timeout', 30_000],
    ['core.supervisor.heartbeat_interval', 5000],
    ['core.supervisor.heartbeat_timeout', 3000],
    ['core.supervisor.restart_base', 1000],
    ['core.supervisor.restart_max', 60_000],
    ['core.supervisor.crashloop_exits', 5],
    ['core.supervisor.crashloop_window', 300_000],
    ['core.supervisor.kill_grace', 3000],
    ['core.plugin.max_rss_mb', 256],
    ['core.plugin.max_cpu_percent', 0],
    ['core.plugin.cpu_over_samples', 5],
    ['core.plugin.limits', {}],
    ['core.wire.max_header_bytes', 8192],
    ['core.wire.max_body_bytes', 4_194_304],
    ['core.log.level', 'info'],
    ['core.log.lines_kept', 500],
  ];
  for (const [key, value] of defaults) {
    assert.deepEqual(registry.getValue('core', key), value, key);
    assert.equal(listed.get(key)?.isSet, false, key);
  }
  for (const entry of listed.values()) {
    const def = entry.def;
    assert.ok(def, entry.key);
    assert.match(def.description?.zh ?? '', /[\u4e00-\u9fff]/, `${entry.key} has a Chinese description`);
    assert.match(def.description?.en ?? '', /^[A-Z].*\.$/, `${entry.key} has an English description`);
    assert.ok(def.category, `${entry.key} has a category`);
    assert.ok(def.type === 'path' || def.default !== undefined, `${entry.key} has a default`);
  }
  registry.set('core', 'core.supervisor.restart_base', '250ms');
  assert.equal(registry.getValue('core', 'core.supervisor.restart_base'), 250);
  assert.throws(() => registry.set('core', 'core.plugin.max_rss_mb', 8), /below the minimum 16/);
  assert.throws(() => registry.set('core', 'core.log.level', 'loud'), /one of debug, info, warn, error/);
});

test('seedDefaults keeps a path a person changed, across restarts', (t) => {
  const file = makeTempConfigFile(t);
  const dataDir = path.dirname(file);
  const mine = path.join(dataDir, 'elsewhere', 'my-plugins');

  const first = ConfigRegistry.open(file);
  seedDefaults(first, dataDir);
  first.set('core', 'core.plugin.dir', mine);
  first.close();

  const second = ConfigRegistry.open(file);
  t.after(() => second.close());
  const paths = seedDefaults(second, dataDir);
  assert.equal(paths.pluginDir, mine);
  assert.equal(second.getValue('core', 'core.plugin.dir'), mine);
  assert.equal(paths.knowledge, path.join(dataDir, 'knowledge'));
  withRawDatabase(file, (db) => assert.equal(db.pragma('integrity_check', { simple: true }), 'ok'));
});

test('seedDefaults resolves a relative data dir to an absolute one', (t) => {
  const file = makeTempConfigFile(t);
  const registry = ConfigRegistry.open(file);
  t.after(() => registry.close());
  const paths = seedDefaults(registry, 'relative-data');
  assert.equal(paths.knowledge, path.resolve('relative-data', 'knowledge'));
});

test('seedDefaults moves the paths under the data dir when the data dir moves, and leaves a path put elsewhere', (t) => {
  const file = makeTempConfigFile(t);
  const first = path.dirname(file);
  const registry = ConfigRegistry.open(file);
  t.after(() => registry.close());
  seedDefaults(registry, first);
  registry.set('core', 'core.memory.text', '/srv/shared-notes');
  const moved = path.join(first, 'moved-here');
  const paths = seedDefaults(registry, moved);
  assert.equal(paths.knowledge, path.join(moved, 'knowledge'));
  assert.equal(paths.memoryGraph, path.join(moved, 'memory', 'graph.db'));
  assert.equal(paths.memoryText, '/srv/shared-notes');
  assert.equal(registry.getValue('core', 'core.data.dir'), moved);
});

test('a config.db from an older version still opens: its core.log.path is kept; core.skills.path, which it had removed, is back', (t) => {
  const file = makeTempConfigFile(t);
  const dataDir = path.dirname(file);
  const old = ConfigRegistry.open(file);
  old.define('core', [{ key: 'core.log.path', type: 'path', category: 'paths' }]);
  old.set('core', 'core.log.path', path.join(dataDir, 'log'));
  old.close();

  const registry = ConfigRegistry.open(file);
  t.after(() => registry.close());
  const paths = seedDefaults(registry, dataDir);
  assert.deepEqual(Object.keys(paths).sort(), ['knowledge', 'logs', 'memoryDocuments', 'memoryGraph', 'memoryText', 'pluginDir', 'skills']);
  assert.equal(paths.logs, path.join(dataDir, 'log'));
  withRawDatabase(file, (db) => {
    const left = db.prepare("SELECT count(*) AS n FROM config WHERE key = 'core.log.path'").get() as { n: number };
    assert.equal(left.n, 1);
  });
  // A version that had retired core.skills.path removed its row: the folder under the data dir is set again.
  assert.equal(paths.skills, path.join(dataDir, 'skills'));
  assert.equal(registry.getValue('core', 'core.skills.path'), path.join(dataDir, 'skills'));
  assert.match(registry.get('core', 'core.skills.path').def?.description?.en ?? '', /skills live/);
});

test('a core.skills.path a person set before it was retired is kept', (t) => {
  const file = makeTempConfigFile(t);
  const dataDir = path.dirname(file);
  const old = ConfigRegistry.open(file);
  old.define('core', [{ key: 'core.skills.path', type: 'path', category: 'paths' }]);
  old.set('core', 'core.skills.path', '/srv/skills');
  old.close();
  const registry = ConfigRegistry.open(file);
  t.after(() => registry.close());
  assert.equal(seedDefaults(registry, dataDir).skills, '/srv/skills');
});

test('every core setting read only at start says so; core.log.level and core.skills.path apply at once; core.data.dir is read-only', () => {
  const live = CORE_DEFS.filter((def) => !def.restart).map((def) => def.key);
  assert.deepEqual(live.sort(), ['core.data.dir', 'core.log.level', 'core.skills.path']);
  const dataDir = CORE_DEFS.find((def) => def.key === 'core.data.dir');
  assert.match(dataDir?.readOnly ?? '', /homed with -data DIR/);
});

test("core.data.dir refuses a person's set and unset, saying what to do; homed itself still records it", (t) => {
  const file = makeTempConfigFile(t);
  const registry = ConfigRegistry.open(file);
  t.after(() => registry.close());
  seedDefaults(registry, path.dirname(file));
  const readOnly = (error: unknown): boolean => {
    assert.ok(error instanceof ConfigError);
    assert.equal(error.code, ErrorCodes.Conflict);
    assert.match(error.message, /^core\.data\.dir is read-only: homed sets it itself; start homed with -data DIR/);
    return true;
  };
  assert.throws(() => registry.set('core', 'core.data.dir', '/elsewhere', 'other'), readOnly);
  assert.throws(() => registry.unset('core', 'core.data.dir', 'other'), readOnly);
  assert.equal(registry.getValue('core', 'core.data.dir'), path.dirname(file));
  const moved = path.join(path.dirname(file), 'moved');
  seedDefaults(registry, moved);
  assert.equal(registry.getValue('core', 'core.data.dir'), moved);
});
