// Another local user cannot lock the owner out of the page: every local user reaches it from 127.0.0.1, so wrong
// sign-in tries from another uid share the owner's address. Before, 11 of them made the owner's genuine link
// answer 429 for a minute. Now a valid one-time secret is always accepted and only failures are limited.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { startLiveWebui, type LiveWebui } from '../plugins/webui/live';

/** A uid of nobody's on this machine, for the other local user (setpriv needs root; without it the tries come from this uid). */
const OTHER_UID = 250_021;
const isRoot = process.getuid?.() === 0;
/** More wrong tries than the allowance of a minute (10). */
const WRONG_TRIES = 11;

/** Posts `count` wrong secrets from another uid (a node process under setpriv) and resolves with their statuses. */
function wrongTriesFromAnotherUser(live: LiveWebui, count: number): Promise<number[]> {
  const script = `
    (async () => {
      const statuses = [];
      for (let i = 0; i < ${count}; i++) {
        const answer = await fetch(${JSON.stringify(`${live.origin}/api/login`)}, {
          method: 'POST',
          headers: { origin: ${JSON.stringify(live.origin)}, 'content-type': 'application/json' },
          body: JSON.stringify({ secret: 'wrong-guess-' + i }),
        });
        statuses.push(answer.status);
      }
      process.stdout.write(JSON.stringify(statuses));
    })();`;
  const node = [process.execPath, '-e', script];
  const [command, args] = isRoot
    ? ['setpriv', [`--reuid=${OTHER_UID}`, `--regid=${OTHER_UID}`, '--clear-groups', '--', ...node]]
    : [process.execPath, node.slice(1)];
  const child = spawn(command, args, { cwd: '/', stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (err += text));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(JSON.parse(out) as number[]) : reject(new Error(`the other user's tries failed (${code}): ${err}`))));
  });
}

async function signIn(live: LiveWebui, secret: string): Promise<Response> {
  return fetch(`${live.origin}/api/login`, {
    method: 'POST',
    headers: { origin: live.origin, 'content-type': 'application/json' },
    body: JSON.stringify({ secret }),
  });
}

describe('wrong sign-in tries of another local user', () => {
  let live: LiveWebui;
  before(async () => {
    live = await startLiveWebui();
  });
  after(async () => {
    await live?.homed.cleanup();
  });

  it(`${WRONG_TRIES} wrong tries from another uid leave the owner's genuine link working; the failures are still limited`, async () => {
    const statuses = await wrongTriesFromAnotherUser(live, WRONG_TRIES);
    assert.deepEqual(statuses.slice(0, 10), Array<number>(10).fill(401), 'the first ten wrong tries are told the link is not valid');
    assert.equal(statuses[10], 429, 'the eleventh wrong try in a minute is limited');
    const owner = await signIn(live, new URL(live.link()).hash.replace('#login=', ''));
    assert.equal(owner.status, 200, `the owner's genuine link signs in: ${owner.status} ${await owner.text()}`);
    assert.match(owner.headers.get('set-cookie') ?? '', /^homeagent_session=/);
    const [more] = await wrongTriesFromAnotherUser(live, 1);
    assert.equal(more, 429, 'wrong tries stay limited after the owner signed in');
    const limited = await signIn(live, 'another-wrong-guess');
    assert.equal(limited.status, 429);
    assert.match(limited.headers.get('retry-after') ?? '', /^\d+$/, 'a limited try says when to try again');
  });
});
