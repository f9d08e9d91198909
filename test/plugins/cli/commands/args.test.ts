// A command's positionals against its table entry: required, optional `[ID]`, and one-or-more `NAME…`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCommandLine } from '../../../../plugins/cli/commands/main';
import { UsageError, type Command } from '../../../../plugins/cli/commands/types';

const command = (args: string[]): Command => ({
  words: 'test run',
  args,
  options: { all: { type: 'boolean' } },
  flags: '[--all]',
  summary: 'a command for the parser',
  run: () => Promise.resolve(),
});

describe('homectl positionals', () => {
  it('takes an optional [ID] or none, not two', () => {
    const revoke = command(['[ID]']);
    assert.deepEqual(parseCommandLine(revoke, ['abc']).positionals, ['abc']);
    assert.deepEqual(parseCommandLine(revoke, ['--all']).positionals, []);
    assert.equal(parseCommandLine(revoke, ['--all']).values['all'], true);
    assert.throws(
      () => parseCommandLine(revoke, ['a', 'b']),
      (e: unknown) => e instanceof UsageError && /test run takes \[ID\], got a b/.test(e.message),
    );
  });

  it('still needs every required argument, and one or more of a variadic one', () => {
    assert.throws(() => parseCommandLine(command(['NAME']), []), /test run takes NAME, got none/);
    assert.throws(() => parseCommandLine(command(['NAME']), ['a', 'b']), /takes NAME, got a b/);
    assert.throws(() => parseCommandLine(command(['NAME', 'FILE…']), ['a']), /takes NAME FILE…/);
    assert.deepEqual(parseCommandLine(command(['NAME', 'FILE…']), ['a', 'b', 'c']).positionals, ['a', 'b', 'c']);
  });

  it('takes the rest of the line for an optional variadic [PATTERN…]: `approvals allow exec git status` needs no quotes', () => {
    const allow = command(['TOOL', '[PATTERN…]']);
    assert.deepEqual(parseCommandLine(allow, ['exec', 'git', 'status']).positionals, ['exec', 'git', 'status']);
    assert.deepEqual(parseCommandLine(allow, ['exec']).positionals, ['exec']);
    assert.throws(() => parseCommandLine(allow, []), /takes TOOL \[PATTERN…\], got none/);
  });
});
