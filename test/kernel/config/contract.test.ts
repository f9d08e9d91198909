// Settings as a contract: who may write what, typos caught with the closest key, values shown as people write them.
import assert from 'node:assert/strict';
import { describe, it, test, type TestContext } from 'node:test';
import { ConfigError, ConfigRegistry, CORE_DEFS, seedDefaults } from '../../../kernel/config';
import { closestKey } from '../../../kernel/config/suggest';
import { ErrorCodes } from '../../../protocol';
import { makeTempConfigFile, withRawDatabase } from './helpers';

function openSeeded(t: TestContext): { registry: ConfigRegistry; file: string } {
  const file = makeTempConfigFile(t);
  const registry = ConfigRegistry.open(file);
  t.after(() => registry.close());
  seedDefaults(registry, makeTempConfigFile(t).replace(/config\.db$/, 'data'));
  registry.define('timer', [{ key: 'timers', type: 'json', default: [] }]);
  return { registry, file };
}

function refusal(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a refusal');
}

function storedRows(file: string, table: string): number {
  return withRawDatabase(file, (db) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n);
}

describe('a person (or another plugin) sets only declared keys', () => {
  it('a typo in a pattern key is answered with the pattern filled by the names typed, spelt as typed (no core. added)', (t) => {
    const { registry } = openSeeded(t);
    registry.define('core', [{ key: 'llm.provider.*.model', type: 'string' }]);
    const error = refusal(() => registry.set('core', 'llm.provider.work.modle', 'gpt-4o', 'machine-owner'));
    assert.equal(
      error.message,
      'llm.provider.work.modle is not a known setting of homed; did you mean llm.provider.work.model? (homectl config list shows every setting)',
    );
    assert.deepEqual(error.toResponseError().data, {
      name: 'HA_ERR_NOT_FOUND',
      scope: 'core',
      key: 'llm.provider.work.modle',
      suggestion: 'llm.provider.work.model',
    });
  });

  it("a plugin's pattern key is suggested too, and a plugin that declares only patterns is not said to declare none", (t) => {
    const { registry } = openSeeded(t);
    registry.define('openclaw', [{ key: 'skills.*.enabled', type: 'bool', default: true }]);
    const error = refusal(() => registry.set('openclaw', 'skills.weather.enabld', 'false', 'machine-owner'));
    assert.match(
      error.message,
      /^openclaw:skills\.weather\.enabld is not a known setting of plugin "openclaw"; did you mean openclaw:skills\.weather\.enabled\?/,
    );
  });

  it("a plugin's key typed as a core key (exec.max_timeout) is suggested as exec:max_timeout", (t) => {
    const { registry } = openSeeded(t);
    registry.define('exec', [{ key: 'max_timeout', type: 'duration', default: 600_000 }]);
    for (const typed of ['exec.max_timeout', 'exec.max_timout']) {
      const error = refusal(() => registry.set('core', typed, '5m', 'machine-owner'));
      assert.equal(error.message, `${typed} is not a known setting of homed; did you mean exec:max_timeout? (homectl config list shows every setting)`);
      assert.deepEqual([error.suggestion, error.toResponseError().data?.suggestionScope], ['max_timeout', 'exec']);
    }
  });

  it("every refusal names a plugin's key as homectl takes it, PLUGIN:KEY", (t) => {
    const { registry } = openSeeded(t);
    registry.define('exec', [{ key: 'max_timeout', type: 'duration', default: 600_000 }]);
    assert.match(refusal(() => registry.set('exec', 'max_timeout', 'soon', 'machine-owner')).message, /^exec:max_timeout: "soon" is not a duration/);
  });

  it('a typo of a core key is refused with NotFound naming the closest key, and nothing is stored', (t) => {
    const { registry, file } = openSeeded(t);
    const before = storedRows(file, 'config');
    const error = refusal(() => registry.set('core', 'core.log.levle', 'debug', 'other'));
    assert.equal(error.code, ErrorCodes.NotFound);
    assert.equal(error.message, 'core.log.levle is not a known setting of homed; did you mean core.log.level? (homectl config list shows every setting)');
    assert.deepEqual(error.toResponseError().data, { name: 'HA_ERR_NOT_FOUND', scope: 'core', key: 'core.log.levle', suggestion: 'core.log.level' });
    assert.equal(storedRows(file, 'config'), before);
  });

  it('a key far from every other gets no guess, only where to look', (t) => {
    const { registry } = openSeeded(t);
    const error = refusal(() => registry.set('core', 'nope', '1', 'other'));
    assert.equal(error.message, 'nope is not a known setting of homed; homectl config list shows every setting');
    assert.equal(error.suggestion, undefined);
  });

  it('a plugin key is suggested as homectl writes it, PLUGIN:KEY; a plugin that declares nothing says so', (t) => {
    const { registry } = openSeeded(t);
    assert.match(
      refusal(() => registry.set('timer', 'nope', '3', 'other')).message,
      /^timer:nope is not a known setting of plugin "timer"; homectl config list --plugin timer shows/,
    );
    assert.match(refusal(() => registry.set('timer', 'timer', '[]', 'other')).message, /did you mean timer:timers\?/);
    assert.match(
      refusal(() => registry.set('ghost', 'x', '1', 'other')).message,
      /^ghost:x is not a known setting: plugin "ghost" declares none; is it installed/,
    );
  });

  it('config get of a typo suggests the same way', (t) => {
    const { registry } = openSeeded(t);
    const error = refusal(() => registry.get('core', 'core.supervisor.kill_grcae'));
    assert.equal(error.code, ErrorCodes.NotFound);
    assert.match(error.message, /did you mean core\.supervisor\.kill_grace\?/);
  });
});

describe("a plugin's own undeclared keys, and keys older versions left behind", () => {
  it('the owner may keep private state under an undeclared key; others read and remove it but cannot set it', (t) => {
    const { registry } = openSeeded(t);
    registry.set('timer', 'cursor', 41);
    assert.deepEqual(registry.get('timer', 'cursor'), { scope: 'timer', key: 'cursor', value: 41, isSet: true });
    assert.equal(refusal(() => registry.set('timer', 'cursor', 42, 'other')).code, ErrorCodes.NotFound);
    const listed = registry.list('timer').map((e) => [e.key, e.def === undefined]);
    assert.deepEqual(listed, [
      ['cursor', true],
      ['timers', false],
    ]);
    const after = registry.unset('timer', 'cursor', 'other');
    assert.deepEqual([after.isSet, after.value], [false, null]);
    assert.deepEqual(
      registry.list('timer').map((e) => e.key),
      ['timers'],
    );
  });

  it('unset of a key neither declared nor stored is NotFound with a suggestion; of a declared one it is a no-op', (t) => {
    const { registry } = openSeeded(t);
    assert.match(refusal(() => registry.unset('core', 'core.log.levle', 'other')).message, /did you mean core\.log\.level\?/);
    const entry = registry.unset('core', 'core.log.level', 'other');
    assert.deepEqual([entry.value, entry.isSet], ['info', false]);
  });
});

describe('a definition says when its change applies and who may write it', () => {
  it('restart and readOnly are kept when well formed and refused when not', (t) => {
    const registry = ConfigRegistry.open(makeTempConfigFile(t));
    t.after(() => registry.close());
    registry.define('demo', [
      { key: 'port', type: 'int', default: 1, restart: true },
      { key: 'id', type: 'string', readOnly: 'it is made at install' },
    ]);
    assert.equal(registry.get('demo', 'port').def?.restart, true);
    assert.equal(registry.get('demo', 'id').def?.readOnly, 'it is made at install');
    assert.match(
      refusal(() => registry.define('demo', [{ key: 'x', type: 'int', restart: 'yes' as unknown as boolean }])).message,
      /restart that is not true or false/,
    );
    assert.match(refusal(() => registry.define('demo', [{ key: 'x', type: 'int', readOnly: '' }])).message, /readOnly that is not a text/);
    assert.equal(refusal(() => registry.set('demo', 'id', 'x', 'other')).code, ErrorCodes.Conflict);
    assert.equal(registry.set('demo', 'id', 'made').value, 'made', 'its owner writes it');
  });

  it('a guarded key is set and unset by its owner and the machine owner only; a page or another plugin is told the homectl command', (t) => {
    const registry = ConfigRegistry.open(makeTempConfigFile(t));
    t.after(() => registry.close());
    registry.define('demo', [
      { key: 'roots', type: 'json', default: [], guarded: true },
      { key: 'level', type: 'string', default: 'a' },
    ]);
    assert.equal(registry.get('demo', 'roots').def?.guarded, true);
    const set = refusal(() => registry.set('demo', 'roots', ['/'], 'other'));
    assert.equal(set.code, ErrorCodes.PermissionDenied);
    assert.match(set.message, /^demo:roots is guarded: .* only the owner changes it, on the machine running homed: homectl config set demo:roots VALUE$/);
    assert.match(refusal(() => registry.unset('demo', 'roots', 'other')).message, /homectl config unset demo:roots$/);
    assert.deepEqual(registry.getValue('demo', 'roots'), []);
    assert.deepEqual(registry.set('demo', 'roots', ['/srv'], 'machine-owner').value, ['/srv']);
    assert.deepEqual(registry.set('demo', 'roots', ['/srv/a']).value, ['/srv/a'], 'the plugin writes its own');
    assert.equal(registry.unset('demo', 'roots', 'machine-owner').isSet, false);
    assert.equal(registry.set('demo', 'level', 'b', 'other').value, 'b', 'a key that is not guarded stays open');
    assert.match(
      refusal(() => registry.define('demo', [{ key: 'x', type: 'int', guarded: 'yes' as unknown as boolean }])).message,
      /guarded that is not true or false/,
    );
  });

  it('the settings that widen what the agent may do are guarded: the data paths', (t) => {
    const { registry } = openSeeded(t);
    const paths = CORE_DEFS.filter((def) => def.category === 'paths' && def.readOnly === undefined);
    assert.ok(paths.length >= 7);
    for (const def of paths) assert.equal(registry.get('core', def.key).def?.guarded, true, def.key);
    assert.equal(registry.get('core', 'core.log.level').def?.guarded, undefined);
  });

  it('every core key homed reads only at start is marked restart', () => {
    const live = ['core.log.level', 'core.data.dir', 'core.skills.path'];
    for (const def of CORE_DEFS) {
      if (live.includes(def.key)) assert.equal(def.restart, undefined, def.key);
      else assert.equal(def.restart, true, def.key);
    }
  });
});

describe('durations and sizes are shown as people write them, and stored as numbers', () => {
  it('a duration typed as 2m is stored as 120000 and listed with display 2m', (t) => {
    const { registry } = openSeeded(t);
    const set = registry.set('core', 'core.supervisor.restart_max', '2m', 'other');
    assert.deepEqual([set.value, set.display], [120_000, '2m']);
    assert.equal(registry.getValue('core', 'core.supervisor.restart_max'), 120_000);
    const listed = registry.list('core').find((e) => e.key === 'core.supervisor.restart_max');
    assert.deepEqual([listed?.value, listed?.display], [120_000, '2m']);
    assert.equal(registry.get('core', 'core.supervisor.kill_grace').display, '3s', 'a default is shown the same way');
    assert.equal(registry.set('core', 'core.supervisor.restart_max', '1500', 'other').display, '1.5s', 'a bare number is milliseconds');
  });

  it('a size accepts 8MB, 8MiB and 512K and a bare number of bytes, and shows 8MiB', (t) => {
    const { registry } = openSeeded(t);
    for (const text of ['8MB', '8MiB', '8m', '8388608']) {
      const entry = registry.set('core', 'core.wire.max_body_bytes', text, 'other');
      assert.deepEqual([entry.value, entry.display], [8 * 1024 * 1024, '8MiB'], text);
    }
    assert.equal(registry.set('core', 'core.wire.max_header_bytes', '512K', 'other').value, 512 * 1024);
    assert.match(refusal(() => registry.set('core', 'core.wire.max_body_bytes', '512', 'other')).message, /: 512B is below the minimum 1KiB; /);
    assert.match(
      refusal(() => registry.set('core', 'core.wire.max_body_bytes', 'lots', 'other')).message,
      /"lots" is not a size; use a size of at least 1KiB, like 512K, 8MB/,
    );
    const plain = registry.get('core', 'core.plugin.max_rss_mb');
    assert.equal(plain.display, undefined, 'other types carry no display');
  });
});

test('closestKey: a letter or two away is a typo; a missing prefix is found; nothing close is nothing', () => {
  const keys = ['core.log.level', 'core.log.lines_kept', 'core.plugin.dir'];
  assert.equal(closestKey('core.log.levle', keys), 'core.log.level');
  assert.equal(closestKey('core.log.levl', keys), 'core.log.level');
  assert.equal(closestKey('log.level', keys), 'core.log.level');
  assert.equal(closestKey('core.plugins.dir', keys), 'core.plugin.dir');
  assert.equal(closestKey('nope', keys), undefined);
  assert.equal(closestKey('x', []), undefined);
  assert.equal(closestKey('core.log.leve', ['core.log.level', 'core.log.lever']), 'core.log.level', 'a tie goes to the first by key');
});
