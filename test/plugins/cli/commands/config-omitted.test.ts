import assert from 'node:assert/strict';
import { test } from 'node:test';
import { displayValue, renderConfigTable } from '../../../../plugins/cli/commands/config';

test('a value left out of a list answer shows its size and the command that reads it whole', () => {
  const entry = { scope: 'weather', key: 'cache', value: null, isSet: true, omittedBytes: 921_600 };
  assert.equal(displayValue(entry), '(900 KiB, not listed: homectl config get weather:cache)');
  assert.match(renderConfigTable([entry]).split('\n')[1] ?? '', /^weather:cache\s+\?\s+\(900 KiB, not listed: homectl config get weather:cache\)\s+set/);
});
