// waiter's command line and its defaults.
import assert from 'node:assert/strict';
import * as os from 'node:os';
import { test } from 'node:test';
import { WaiterUsageError, defaultSession, historyFile, parseWaiterArgs } from '../../../../plugins/cli/waiter/args';

const env = { HOME: '/home/alice' };

test('-say and --say, with a value or =value; no -say means interactive', () => {
  for (const argv of [['-say', 'hi'], ['--say', 'hi'], ['--say=hi'], ['-say=hi']]) {
    const args = parseWaiterArgs(argv, env, '/work');
    assert.equal(args.mode, 'say');
    assert.equal(args.text, 'hi');
  }
  assert.equal(parseWaiterArgs([], env, '/work').mode, 'interactive');
  assert.equal(parseWaiterArgs(['--help'], env, '/work').mode, 'help');
});

test('the socket is found as homectl finds it; the session defaults to cli:<user>', () => {
  const args = parseWaiterArgs(['-data', 'd', '-say', 'x'], env, '/work');
  assert.equal(args.socket, '/work/d/run/homed.sock');
  assert.equal(args.session, `cli:${os.userInfo().username}`);
  assert.equal(parseWaiterArgs(['--session', 'kitchen'], env, '/work').session, 'kitchen');
  assert.equal(parseWaiterArgs(['--session=hall', '-say=a=b'], env, '/work').session, 'hall');
  assert.equal(parseWaiterArgs(['-say=a=b'], env, '/work').text, 'a=b', 'only the first = splits flag from value');
  assert.equal(parseWaiterArgs(['-say', '--help'], env, '/work').text, '--help', 'a value flag takes the next word whatever it is');
  assert.equal(parseWaiterArgs([], { HOMEAGENT_SOCKET: '/run/h.sock' }, '/work').socket, '/run/h.sock');
  assert.equal(defaultSession({}), `cli:${os.userInfo().username}`);
});

test('history: ~/.homeagent_history, $HOMEAGENT_HISTORY, or none when that is empty', () => {
  assert.equal(historyFile({ HOME: '/home/alice' }), '/home/alice/.homeagent_history');
  assert.equal(historyFile({ HOME: '/home/alice', HOMEAGENT_HISTORY: '/tmp/h' }), '/tmp/h');
  assert.equal(historyFile({ HOME: '/home/alice', HOMEAGENT_HISTORY: '' }), null);
});

test('usage errors say what is wrong', () => {
  const cases: [string[], RegExp][] = [
    [['-say'], /-say needs the message/],
    [['-say', ' '], /-say needs a message that is not empty/],
    [['--session'], /--session needs a name/],
    [['--session='], /--session needs a name/],
    [['--say='], /-say needs a message that is not empty/],
    [['--colour'], /unknown option --colour/],
    [['hello', 'world'], /put the message in quotes after -say: waiter -say "hello world"/],
  ];
  for (const [argv, message] of cases)
    assert.throws(
      () => parseWaiterArgs(argv, env, '/work'),
      (e: unknown) => e instanceof WaiterUsageError && message.test(e.message),
    );
});
