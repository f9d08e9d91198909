import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { ErrorCodes, type ConfigEntry } from '../../../protocol';
import { ConfigError, ConfigRegistry, fitForListing, MAX_LISTED_BYTES, MAX_LISTED_VALUE_BYTES, MAX_VALUE_BYTES } from '../../../kernel/config';
import { makeTempConfigFile } from './helpers';

function openRegistry(t: TestContext): ConfigRegistry {
  const registry = ConfigRegistry.open(makeTempConfigFile(t));
  t.after(() => registry.close());
  return registry;
}

/** A string whose JSON (with its two quotes) is exactly `bytes` bytes. */
const jsonOf = (bytes: number): string => 'v'.repeat(bytes - 2);

test('a value over MAX_VALUE_BYTES of JSON is refused with the key, its size and the cap; the old value stays', (t) => {
  const registry = openRegistry(t);
  registry.define('core', [{ key: 'core.note', type: 'string' }]);
  registry.set('core', 'core.note', 'before');
  assert.equal((registry.set('core', 'core.note', jsonOf(MAX_VALUE_BYTES)).value as string).length, MAX_VALUE_BYTES - 2, 'exactly the cap is stored');
  registry.set('core', 'core.note', 'before');
  let caught: unknown;
  try {
    registry.set('core', 'core.note', 'x'.repeat(5_400_000));
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof ConfigError);
  assert.equal(caught.code, ErrorCodes.InvalidValue);
  assert.equal(caught.key, 'core.note');
  assert.equal(
    caught.message,
    'core.note: the value is 5.1 MiB as JSON, more than the 1 MiB a setting may hold; keep big data in a file and store its path instead',
  );
  assert.equal(registry.getValue('core', 'core.note'), 'before', 'nothing was lost');
  assert.throws(
    () => registry.set('weather', 'blob', { list: Array.from({ length: 200_000 }, () => 'abcdef') }),
    /weather:blob: the value is 1\.\d MiB as JSON/,
    'any JSON value, undeclared keys too',
  );
});

const entry = (key: string, value: unknown): ConfigEntry => ({ scope: 'core', key, value, isSet: true });

test('six 900 KB values are left out of a list with their sizes; the small ones are listed whole', () => {
  const big = Array.from({ length: 6 }, (_, i) => entry(`core.big${i}`, jsonOf(900_000)));
  const small = [entry('core.a', 'small'), entry('core.b', { n: 1 })];
  const listed = fitForListing([small[0]!, ...big, small[1]!]);
  assert.deepEqual(listed[0], small[0]);
  assert.deepEqual(listed[7], small[1]);
  for (const e of listed.slice(1, 7)) {
    assert.equal(e.value, null);
    assert.equal(e.omittedBytes, 900_000);
  }
  assert.ok(Buffer.byteLength(JSON.stringify(listed)) < 10_000, 'the answer is small');
});

test('values just under the per-value limit are listed until their sum would pass MAX_LISTED_BYTES, biggest left out first', () => {
  assert.deepEqual(fitForListing([entry('core.x', jsonOf(MAX_LISTED_VALUE_BYTES))])[0]!.value, jsonOf(MAX_LISTED_VALUE_BYTES), 'at the limit: listed');
  assert.equal(fitForListing([entry('core.x', jsonOf(MAX_LISTED_VALUE_BYTES + 1))])[0]!.omittedBytes, MAX_LISTED_VALUE_BYTES + 1);
  const sizes = Array.from({ length: 30 }, (_, i) => 40_000 + i * 100);
  const listed = fitForListing(sizes.map((bytes, i) => entry(`core.k${i}`, jsonOf(bytes))));
  const kept = listed.filter((e) => e.omittedBytes === undefined);
  const total = kept.reduce((sum, e) => sum + (e.value as string).length + 2, 0);
  assert.ok(total <= MAX_LISTED_BYTES, `${total} bytes of values listed`);
  assert.ok(total > MAX_LISTED_BYTES - 45_000, 'no more was left out than needed');
  const omitted = listed.filter((e) => e.omittedBytes !== undefined).map((e) => e.key);
  assert.deepEqual(omitted, sizes.map((_, i) => `core.k${i}`).slice(30 - omitted.length), 'the biggest were left out');
});
