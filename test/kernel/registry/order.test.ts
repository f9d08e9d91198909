import assert from 'node:assert/strict';
import { test } from 'node:test';
import { orderByDependencies } from '../../../kernel/registry/order';

test('plugins start in levels: each after everything it depends on', () => {
  const { levels, problems } = orderByDependencies([
    { name: 'webui', depends: ['cli'] },
    { name: 'cli', depends: [] },
    { name: 'timer', depends: [] },
    { name: 'bridge', depends: ['webui', 'timer'] },
  ]);
  assert.deepEqual(levels, [['cli', 'timer'], ['webui'], ['bridge']]);
  assert.equal(problems.size, 0);
});

test('a missing dependency leaves the plugin and its dependents out, with reasons', () => {
  const { levels, problems } = orderByDependencies([
    { name: 'a', depends: ['ghost'] },
    { name: 'b', depends: ['a'] },
    { name: 'c', depends: [] },
  ]);
  assert.deepEqual(levels, [['c']]);
  assert.match(problems.get('a') ?? '', /depends on "ghost", which is not installed/);
  assert.match(problems.get('b') ?? '', /depends on "a", which cannot start/);
});

test('a cycle is named, and the rest still starts', () => {
  const { levels, problems } = orderByDependencies([
    { name: 'x', depends: ['y'] },
    { name: 'y', depends: ['x'] },
    { name: 'z', depends: [] },
  ]);
  assert.deepEqual(levels, [['z']]);
  assert.match(problems.get('x') ?? '', /dependency cycle \(x → y\)/);
});
