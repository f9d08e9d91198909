// The socket protocol end to end: raw lines to a real homed, bad input answered, homed unharmed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ErrorCodes, SOCKET_MAX_LINE_BYTES, SocketApi, type PluginStatus } from '../../../protocol';
import { connectRaw, startHomed, waitFor, type HomedHandle } from '../../harness/homed';
import { HomedAnswerError, callOnce } from '../../../plugins/cli/client';

describe('the cli socket, raw', () => {
  let homed: HomedHandle;
  let cliPid: number | null;

  const cliStatus = async (): Promise<PluginStatus> => {
    const { plugins } = await callOnce(homed.socket, SocketApi.PluginsList, {});
    const cli = plugins.find((p) => p.name === 'cli');
    assert.ok(cli);
    return cli;
  };
  /** The cli plugin is still the same ready process it was at the start. */
  const assertUnharmed = async (): Promise<void> => {
    const cli = await cliStatus();
    assert.equal(cli.state, 'ready');
    assert.equal(cli.pid, cliPid);
    assert.equal(cli.restarts, 0);
  };

  before(async () => {
    homed = await startHomed();
    cliPid = (await cliStatus()).pid;
  });
  after(async () => {
    await homed?.cleanup();
  });

  it('answers a request with its id and result', async (t) => {
    const raw = await connectRaw(homed.socket);
    t.after(() => raw.close());
    raw.write('{"id":"s-1","method":"kernel/status","params":{}}\n');
    const answer = await raw.nextAnswer();
    assert.equal(answer['id'], 's-1');
    assert.equal((answer['result'] as { pid: number }).pid, homed.pid);
  });

  it('answers a garbage line with a parse error and keeps the connection', async (t) => {
    const raw = await connectRaw(homed.socket);
    t.after(() => raw.close());
    raw.write('this is not json\n');
    const bad = await raw.nextAnswer();
    assert.equal(bad['id'], null);
    assert.deepEqual(
      { ...(bad['error'] as object), message: undefined },
      {
        code: ErrorCodes.ParseError,
        name: 'HA_ERR_PARSE',
        message: undefined,
      },
    );
    assert.match((bad['error'] as { message: string }).message, /not JSON/);
    raw.write('{"id":2,"method":"kernel/status"}\n');
    assert.equal((await raw.nextAnswer())['id'], 2);
    await assertUnharmed();
  });

  it('names what is wrong with a line that is JSON but not a request', async (t) => {
    const raw = await connectRaw(homed.socket);
    t.after(() => raw.close());
    const cases: [string, RegExp][] = [
      ['{"id":3,"method":7}', /method must be string/],
      ['{"id":4,"method":"kernel/status","extra":1}', /unknown property "extra"/],
      ['{"id":5,"method":"plugins/info","params":{}}', /params needs "name"/],
      ['{"id":6,"method":"plugins/control","params":{"name":"cli","action":"explode"}}', /params\.action must be one of start, stop/],
      ['[1,2,3]', /request must be object/],
    ];
    for (const [line, pattern] of cases) {
      raw.write(`${line}\n`);
      const answer = await raw.nextAnswer();
      const error = answer['error'] as { code: number; name: string; message: string };
      assert.equal(error.code, ErrorCodes.InvalidRequest, line);
      assert.equal(error.name, 'HA_ERR_INVALID_REQUEST');
      assert.match(error.message, pattern);
    }
    await assertUnharmed();
  });

  it('answers an unknown method with the list of methods', async (t) => {
    const raw = await connectRaw(homed.socket);
    t.after(() => raw.close());
    raw.write('{"id":7,"method":"no/such"}\n');
    const error = (await raw.nextAnswer())['error'] as { code: number; name: string; message: string };
    assert.equal(error.code, ErrorCodes.MethodNotFound);
    assert.equal(error.name, 'HA_ERR_METHOD_NOT_FOUND');
    assert.match(error.message, /"no\/such".*plugins\/list/);
  });

  it('passes a kernel error through with its code, name and facts', async (t) => {
    const raw = await connectRaw(homed.socket);
    t.after(() => raw.close());
    raw.write('{"id":8,"method":"plugins/info","params":{"name":"ghost"}}\n');
    const answer = await raw.nextAnswer();
    assert.equal(answer['id'], 8);
    const error = answer['error'] as { code: number; name: string; message: string; data: { name: string } };
    assert.equal(error.code, ErrorCodes.NotFound);
    assert.equal(error.name, 'HA_ERR_NOT_FOUND');
    assert.equal(error.data.name, 'HA_ERR_NOT_FOUND');
    assert.match(error.message, /ghost/);
  });

  it('does not answer a notification', async (t) => {
    const raw = await connectRaw(homed.socket);
    t.after(() => raw.close());
    raw.write('{"method":"kernel/status"}\n{"method":"no/such"}\n{"id":9,"method":"kernel/status"}\n');
    assert.equal((await raw.nextAnswer())['id'], 9);
  });

  it('refuses an over-long line and closes that connection only', async (t) => {
    const raw = await connectRaw(homed.socket);
    t.after(() => raw.close());
    raw.write(Buffer.alloc(SOCKET_MAX_LINE_BYTES + 1, 'a'));
    const answer = await raw.nextAnswer();
    const error = answer['error'] as { code: number; name: string; message: string };
    assert.equal(answer['id'], null);
    assert.equal(error.code, ErrorCodes.LineTooLong);
    assert.equal(error.name, 'HA_ERR_LINE_TOO_LONG');
    assert.match(error.message, new RegExp(`${SOCKET_MAX_LINE_BYTES} bytes`));
    await raw.closed;
    await assertUnharmed();
  });

  it('serves many clients at once', async () => {
    const results = await Promise.all(Array.from({ length: 24 }, () => callOnce(homed.socket, SocketApi.PluginsList, {})));
    for (const result of results) assert.ok(result.plugins.some((p) => p.name === 'cli'));
  });

  it('survives clients that disconnect mid-request', async () => {
    for (let i = 0; i < 20; i++) {
      const raw = await connectRaw(homed.socket);
      raw.write(`{"id":${i},"method":"plugins/list"}\n{"id":"x${i}","method":"plugins/logs","params":{"name":"cli"}}\n`);
      raw.close();
    }
    await assertUnharmed();
  });

  it('applies a changed cli:max_clients without a restart', async () => {
    const setMax = (value: string) => callOnce(homed.socket, SocketApi.ConfigSet, { scope: 'cli', key: 'max_clients', value });
    const refused = async (): Promise<boolean> =>
      callOnce(homed.socket, SocketApi.KernelStatus, {}).then(
        () => false,
        (e: unknown) => e instanceof HomedAnswerError && e.errorName === 'HA_ERR_TOO_MANY_CLIENTS',
      );
    await setMax('1');
    // setMax's own connection counts until the server sees it close: each holder retries until it is served.
    const hold = (what: string) =>
      waitFor(
        async () => {
          const client = await connectRaw(homed.socket);
          client.write('{"id":1,"method":"kernel/status"}\n');
          const answer = await client.nextAnswer().catch(() => undefined);
          if (answer && 'result' in answer) return client;
          client.close();
          return undefined;
        },
        { what },
      );
    // One client fills max_clients 1, a second one the slot kept for homectl; a third is refused.
    const holders = [await hold('a first client to be served under max_clients 1'), await hold('a client in the spare slot')];
    try {
      await waitFor(refused, { what: 'a third client to be refused' });
    } finally {
      holders.forEach((holder) => holder.close());
    }
    // Each probe's own connection counts until the server sees it close, so the reset is retried too;
    // the new cap applies once the plugin has seen config.changed, a moment after config/set answers.
    await waitFor(
      () =>
        setMax('64').then(
          () => true,
          (e: unknown) => (e instanceof HomedAnswerError && e.errorName === 'HA_ERR_TOO_MANY_CLIENTS' ? false : Promise.reject(e)),
        ),
      { what: 'max_clients to be raised again' },
    );
    await waitFor(async () => !(await refused()), { what: 'the raised max_clients to apply' });
    await assertUnharmed();
  });
});
