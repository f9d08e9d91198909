// A waiter that leaves before the model's first token stops its turn at once: the connection to the model
// closes, and the session answers the next message.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startFakeLlmFor } from '../../fake-llm/server';
import { fakeProviderEnv, startHomed } from '../../harness/homed';
import { runWaiter, spawnWaiter } from '../../harness/waiter';

describe('a client that leaves before the first token', () => {
  it('closes the connection to the model at once, and the session goes on', async (t) => {
    const llm = await startFakeLlmFor(t);
    const homed = await startHomed({
      env: fakeProviderEnv(llm),
    });
    t.after(() => homed.cleanup());
    // Headers, then ten minutes before the first token.
    llm.enqueue({ text: 'too late', firstTokenDelayMs: 600_000 });
    const waiter = spawnWaiter(['-data', homed.dataDir, '--session', 'cli:leaver', '-say', 'think hard']);
    await llm.waitForRequests(1, 20_000);
    const connection = llm.requests[0]!.connection;
    const leftAt = Date.now();
    waiter.child.kill('SIGKILL');
    await Promise.race([
      connection.closed,
      new Promise((_, reject) => setTimeout(() => reject(new Error('the model connection stayed open 10 s after the client left')), 10_000)),
    ]);
    assert.equal(connection.closedBy, 'client', 'homed closed it');
    t.diagnostic(`the model connection closed within ${Date.now() - leftAt} ms of the client leaving`);
    llm.setDefault({ text: 'Still here.' });
    const next = await runWaiter(['-data', homed.dataDir, '--session', 'cli:leaver', '-say', 'hello?']);
    assert.equal(next.code, 0, next.stderr);
    assert.equal(next.stdout, 'Still here.\n');
  });
});
