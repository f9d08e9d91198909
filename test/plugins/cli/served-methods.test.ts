// Client methods a plugin serves, reached through the real cli socket of a real homed: the kernel routes them to the
// fixture plugin, checks the declared schema and permission, keeps its own methods, and says why a call cannot run.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ErrorCodes, objectSchema, request, SocketApi } from '../../../protocol';
import { startHomed, waitFor, type HomedHandle } from '../../harness/homed';
import { HomedAnswerError, callOnce } from '../../../plugins/cli/client';
import { byName } from '../../harness/by-name';

const PLUGIN = 'served-methods';

/** The fixture's echo, as the test calls it (the fixture declares it with a 20-character bound on `text`). */
const ServedEcho = request<{ text: string }, { echo: string; pid: number }>('served/echo', {
  params: objectSchema({ text: { type: 'string' } }, ['text']),
  permission: null,
});

/** The error homed answered `method` with. */
async function answerError(socket: string, method: string, params: Record<string, unknown> = {}): Promise<HomedAnswerError> {
  try {
    // By name: the test tries methods nobody declares and params outside their schema, to see each refused.
    await callOnce(socket, byName(method), params);
  } catch (error) {
    if (error instanceof HomedAnswerError) return error;
    throw error;
  }
  assert.fail(`${method} answered a result, not an error`);
}

describe('plugin-served client methods through the cli socket', () => {
  let homed: HomedHandle;

  before(async () => {
    homed = await startHomed({ plugins: [PLUGIN] });
    await waitFor(async () => {
      const { plugins } = await callOnce(homed.socket, SocketApi.PluginsList, {});
      return plugins.find((p) => p.name === PLUGIN)?.state === 'ready';
    });
  });
  after(async () => {
    await homed?.cleanup();
  });

  it('runs a served method in the plugin that declared it', async () => {
    const answer = await callOnce(homed.socket, ServedEcho, { text: 'hello' });
    const { plugin } = await callOnce(homed.socket, SocketApi.PluginsInfo, { name: PLUGIN });
    assert.deepEqual(answer, { echo: 'hello', pid: plugin.pid });
  });

  it('checks the params against the declared schema before the plugin is called', async () => {
    const error = await answerError(homed.socket, ServedEcho.method, { text: 'x'.repeat(21) });
    assert.equal(error.errorName, 'HA_ERR_INVALID_VALUE');
    assert.match(error.message, /served\/echo refused: params\.text is 21 characters; the most is 20/);
    const extra = await answerError(homed.socket, ServedEcho.method, { text: 'a', more: 1 });
    assert.match(extra.message, /served\/echo refused: params/);
  });

  it('refuses a method whose declared permission the calling server lacks', async () => {
    const error = await answerError(homed.socket, 'served/needs-llm');
    assert.equal(error.code, ErrorCodes.PermissionDenied);
    assert.match(error.message, /plugin "cli" may not call served\/needs-llm: it needs the permission "llm"/);
  });

  it("passes the plugin's own failure through, and a deadline cuts a slow method off", async () => {
    const failed = await answerError(homed.socket, 'served/fails');
    assert.match(failed.message, /the fixture failed on purpose/);
    const slow = await answerError(homed.socket, 'served/slow');
    assert.equal(slow.errorName, 'HA_ERR_REQUEST_TIMEOUT');
    assert.equal((await callOnce(homed.socket, ServedEcho, { text: 'still here' })).echo, 'still here');
  });

  it("keeps the kernel's own methods: a claim on one is refused and logged", async () => {
    const { plugins } = await callOnce(homed.socket, SocketApi.PluginsList, {});
    assert.ok(plugins.some((p) => p.name === 'cli'));
    const { lines } = await callOnce(homed.socket, SocketApi.PluginsLogs, { name: PLUGIN, lines: 500 });
    assert.ok(
      lines.some((l) => /client method "plugins\/list" refused: the kernel serves that method itself/.test(l.msg)),
      lines.map((l) => l.msg).join('\n'),
    );
  });

  it('answers a method nobody serves as unknown, naming the methods plugins serve', async () => {
    const error = await answerError(homed.socket, 'served/nothing');
    assert.equal(error.code, ErrorCodes.MethodNotFound);
    assert.match(error.message, /unknown method "served\/nothing"; the socket serves .*plugins\/list.*; plugins serve .*served\/echo/);
    assert.doesNotMatch(error.message, /plugins serve .*plugins\/list/);
  });

  it('says the serving plugin is stopped and how to start it, then serves again once it runs', async () => {
    await callOnce(homed.socket, SocketApi.PluginsControl, { name: PLUGIN, action: 'stop' });
    const error = await answerError(homed.socket, ServedEcho.method, { text: 'a' });
    assert.equal(error.errorName, 'HA_ERR_PLUGIN_UNAVAILABLE');
    assert.match(error.message, /served\/echo is not available: plugin "served-methods" is stopped; start it with homectl plugins start served-methods/);
    await callOnce(homed.socket, SocketApi.PluginsControl, { name: PLUGIN, action: 'start' });
    assert.equal((await callOnce(homed.socket, ServedEcho, { text: 'back' })).echo, 'back');
  });

  it('names a disabled plugin whose methods it cannot know yet: webui/open says how to enable webui', async () => {
    const error = await answerError(homed.socket, 'webui/open');
    assert.equal(error.errorName, 'HA_ERR_PLUGIN_UNAVAILABLE');
    assert.match(error.message, /webui\/open is not available: plugin "webui" is disabled; enable it with homectl plugins enable webui/);
  });
});
