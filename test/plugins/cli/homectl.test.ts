// homectl end to end: a real homed on a temp data dir, the compiled homectl, real exit codes.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ConfigEntry, KernelStatus, LogLine, PluginInfo, PluginStatus } from '../../../protocol';
import { leaveStaleSocket, makeTempDir, pidAlive, runHomectl, startHomed, waitFor, type HomedHandle } from '../../harness/homed';

const STATUS_FIELDS: (keyof PluginStatus)[] = [
  'name',
  'kind',
  'version',
  'state',
  'enabled',
  'pid',
  'restarts',
  'uptime_ms',
  'rss_bytes',
  'cpu_percent',
  'last_exit',
  'detail',
  'denied_calls',
  'timeouts',
];
const SECRET = 's3cr3t-hunter2-value';

describe('homectl against a running homed', () => {
  let homed: HomedHandle;
  const ctl = (...args: string[]) => runHomectl(args, { dataDir: homed.dataDir });

  before(async () => {
    homed = await startHomed({ plugins: ['secret-keeper'] });
  });
  after(async () => {
    await homed?.cleanup();
  });

  it('serves a socket that only its owner may use', () => {
    const stat = fs.statSync(homed.socket);
    assert.ok(stat.isSocket(), `${homed.socket} is not a socket`);
    assert.equal(stat.mode & 0o777, 0o600);
  });

  it('plugins list --json prints the PluginStatus array with the cli plugin ready', async () => {
    const { code, stdout, stderr } = await ctl('plugins', 'list', '--json');
    assert.equal(code, 0, stderr);
    const plugins = JSON.parse(stdout) as PluginStatus[];
    assert.ok(Array.isArray(plugins));
    const cli = plugins.find((p) => p.name === 'cli');
    assert.ok(cli, 'no cli plugin in the list');
    for (const field of STATUS_FIELDS) assert.ok(field in cli, `PluginStatus lacks ${field}`);
    assert.equal(cli.state, 'ready');
    assert.equal(cli.kind, 'builtin');
    assert.equal(typeof cli.pid, 'number');
    assert.ok(pidAlive(cli.pid as number));
  });

  it('plugins list prints a table with human units', async () => {
    const { code, stdout, stderr } = await ctl('plugins', 'list');
    assert.equal(code, 0, stderr);
    const [header, ...rows] = stdout.trimEnd().split('\n');
    assert.match(header ?? '', /^NAME\s+KIND\s+STATE\s+PID\s+UPTIME\s+RESTARTS\s+RSS\s+CPU\s+LAST EXIT$/);
    const cli = rows.find((row) => row.startsWith('cli '));
    assert.ok(cli, `no cli row in\n${stdout}`);
    assert.match(cli, /^cli\s+builtin\s+ready\s+\d+\s+(\d+(\.\d)? m?s|\d+ min( \d+ s)?)\s+0\s+(\d+(\.\d)? (B|KiB|MiB|GiB)|-)\s+(\d+\.\d%|-)\s+-$/);
  });

  it('status shows pid, data dir and plugins ready; --json gives KernelStatus', async () => {
    const human = await ctl('status');
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, new RegExp(`pid ${homed.pid}\\b`));
    // approvals, cli, exec, files, healthcheck, openclaw, pluginmgr, timer and web (built-in) and secret-keeper (the fixture); webui is off by default.
    assert.match(human.stdout, /10 ready \/ 10 enabled \/ 11 known/);
    assert.ok(human.stdout.includes(homed.dataDir));
    const json = await ctl('status', '--json');
    const status = JSON.parse(json.stdout) as KernelStatus;
    assert.equal(status.pid, homed.pid);
    assert.equal(status.dataDir, homed.dataDir);
    assert.deepEqual(status.plugins, { ready: 10, enabled: 10, total: 11 });
  });

  it('config set core.log.level warn, then get reads it back', async () => {
    const set = await ctl('config', 'set', 'core.log.level', 'warn');
    assert.equal(set.code, 0, set.stderr);
    assert.equal(set.stdout.trim(), 'core.log.level = warn');
    const get = await ctl('config', 'get', 'core.log.level');
    assert.equal(get.stdout.trim(), 'warn');
    const entry = JSON.parse((await ctl('config', 'get', 'core.log.level', '--json')).stdout) as ConfigEntry;
    assert.equal(entry.isSet, true);
    assert.equal(entry.value, 'warn');
    assert.equal((await ctl('config', 'set', 'core.log.level', 'info')).code, 0);
  });

  it('a bad value exits 1 naming the key and the allowed values, and changes nothing', async () => {
    const before = (await ctl('config', 'get', 'core.log.level')).stdout.trim();
    const { code, stdout, stderr } = await ctl('config', 'set', 'core.log.level', 'loud');
    assert.equal(code, 1);
    assert.equal(stdout, '');
    assert.match(stderr, /core\.log\.level/);
    assert.match(stderr, /debug, info, warn, error/);
    assert.equal((await ctl('config', 'get', 'core.log.level')).stdout.trim(), before);
  });

  it('a plugin setting is addressed as PLUGIN:KEY', async () => {
    const set = await ctl('config', 'set', 'cli:max_clients', '32');
    assert.equal(set.code, 0, set.stderr);
    assert.equal(set.stdout.trim(), 'cli:max_clients = 32');
    const list = JSON.parse((await ctl('config', 'list', '--plugin', 'cli', '--json')).stdout) as ConfigEntry[];
    assert.deepEqual(
      list.map((e) => e.key),
      ['idle_timeout', 'max_clients', 'output_max_mb', 'output_pause_mb', 'output_stall_timeout', 'socket_access', 'socket_path'],
    );
    assert.equal(list.find((e) => e.key === 'max_clients')?.value, 32);
  });

  it('never prints a password in clear', async () => {
    const set = await ctl('config', 'set', 'secret-keeper:api_token', SECRET);
    assert.equal(set.code, 0, set.stderr);
    const got = await ctl('config', 'get', 'secret-keeper:api_token');
    assert.deepEqual([got.code, got.stdout], [0, '(set, hidden)\n'], got.stderr);
    const outputs = [
      set,
      await ctl('config', 'get', 'secret-keeper:api_token', '--json'),
      await ctl('config', 'list', '--plugin', 'secret-keeper'),
      await ctl('config', 'list', '--plugin', 'secret-keeper', '--json'),
      await ctl('config', 'list', '--all'),
      await ctl('config', 'list', '--all', '--json'),
    ];
    for (const out of outputs) {
      assert.equal(out.code, 0, out.stderr);
      assert.ok(!out.stdout.includes(SECRET) && !out.stderr.includes(SECRET), `secret printed:\n${out.stdout}`);
      assert.ok(out.stdout.includes('********'), `no mask in:\n${out.stdout}`);
    }
  });

  it('plugins logs cli returns its recent lines', async () => {
    const human = await ctl('plugins', 'logs', 'cli');
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /serving the socket/);
    const lines = JSON.parse((await ctl('plugins', 'logs', 'cli', '--json')).stdout) as LogLine[];
    assert.ok(lines.length >= 1);
    for (const line of lines) {
      const keys = Object.keys(line).sort();
      assert.deepEqual(
        keys.filter((key) => key !== 'fields'),
        ['at', 'level', 'msg', 'stream'],
      );
      if (line.fields !== undefined) assert.equal(typeof line.fields, 'object', "a plugin's fields stay JSON");
    }
    assert.ok(
      lines.some((line) => line.msg === 'serving the socket' && typeof line.fields?.['path'] === 'string'),
      'fields apart from the message',
    );
    const one = JSON.parse((await ctl('plugins', 'logs', 'cli', '--lines', '1', '--json')).stdout) as LogLine[];
    assert.equal(one.length, 1);
  });

  it("plugins info shows manifest facts; an unknown plugin exits 1 with the daemon's message", async () => {
    const json = await ctl('plugins', 'info', 'cli', '--json');
    assert.equal(json.code, 0, json.stderr);
    const info = JSON.parse(json.stdout) as PluginInfo;
    assert.equal(info.name, 'cli');
    assert.ok(info.permissions.includes('admin'));
    assert.equal(path.basename(info.dir), 'cli');
    const human = await ctl('plugins', 'info', 'cli');
    assert.match(human.stdout, /permissions\s+admin, events, io, interrupt/);
    const missing = await ctl('plugins', 'info', 'no-such-plugin');
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no-such-plugin/);
    assert.match(missing.stderr, /HA_ERR_NOT_FOUND/);
  });

  it('plugins restart gives a plugin a new process', async () => {
    const list = async () => JSON.parse((await ctl('plugins', 'list', '--json')).stdout) as PluginStatus[];
    const before = (await list()).find((p) => p.name === 'secret-keeper');
    assert.equal(before?.state, 'ready');
    const restart = await ctl('plugins', 'restart', 'secret-keeper');
    assert.equal(restart.code, 0, restart.stderr);
    assert.match(restart.stdout, /plugin "secret-keeper" restarted/);
    const after = await waitFor(async () => (await list()).find((p) => p.name === 'secret-keeper' && p.state === 'ready'), {
      what: 'secret-keeper ready again',
    });
    assert.notEqual(after.pid, before?.pid);
  });

  it('refuses to stop or disable the cli plugin through its own socket', async () => {
    for (const action of ['stop', 'disable']) {
      const { code, stderr } = await ctl('plugins', action, 'cli');
      assert.equal(code, 1, `plugins ${action} cli exited ${code}`);
      assert.match(stderr, /cannot (stop|disable) the "cli" plugin through its own socket.*HA_ERR_CONFLICT/);
    }
    assert.equal((await ctl('status')).code, 0);
  });

  it('plugins restart cli waits for the socket to come back', async () => {
    const before = JSON.parse((await ctl('plugins', 'info', 'cli', '--json')).stdout) as PluginInfo;
    const restart = await ctl('plugins', 'restart', 'cli');
    assert.equal(restart.code, 0, restart.stderr);
    assert.match(restart.stdout, /plugin "cli" restarted: now ready, pid \d+/);
    const after = JSON.parse((await ctl('plugins', 'info', 'cli', '--json')).stdout) as PluginInfo;
    assert.equal(after.state, 'ready');
    assert.notEqual(after.pid, before.pid);
  });

  it('usage errors exit 2 with the usage text', async () => {
    for (const args of [
      ['frobnicate'],
      ['plugins', 'frob'],
      ['plugins', 'info'],
      ['config', 'get', 'a', 'b'],
      ['plugins', 'logs', 'cli', '--lines', 'x'],
      ['status', '--bogus'],
      [],
    ]) {
      const { code, stderr } = await ctl(...args);
      assert.equal(code, 2, `homectl ${args.join(' ')} exited ${code}`);
      assert.match(stderr, /usage: homectl/);
    }
    const unknown = await ctl('frobnicate');
    assert.match(unknown.stderr, /unknown command "frobnicate"/);
  });

  it('help exits 0 and lists every command', async () => {
    const { code, stdout } = await ctl('help');
    assert.equal(code, 0);
    for (const words of ['plugins list', 'plugins logs', 'config set', 'status', 'call METHOD']) assert.ok(stdout.includes(words), words);
  });
});

describe('homectl without a homed', () => {
  it('exits 3 with how to start homed when no socket exists', async (t) => {
    const dir = makeTempDir();
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const { code, stdout, stderr } = await runHomectl(['status'], { dataDir: dir });
    assert.equal(code, 3);
    assert.equal(stdout, '');
    assert.ok(stderr.includes(`homed is not running at ${path.join(dir, 'run', 'homed.sock')}`), stderr);
    assert.match(stderr, /npm start/);
    assert.match(stderr, /homed -data DIR/);
  });

  it('exits 3 on a stale socket that nothing serves', async (t) => {
    const dir = makeTempDir();
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const socket = path.join(dir, 'stale.sock');
    await leaveStaleSocket(socket);
    const { code, stderr } = await runHomectl(['plugins', 'list'], { socket });
    assert.equal(code, 3);
    assert.match(stderr, /not running at .*stale\.sock/);
  });

  it('finds the socket through HOMEAGENT_DATA', async (t) => {
    const dir = makeTempDir();
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const { code, stderr } = await runHomectl(['status'], { env: { HOMEAGENT_DATA: dir } });
    assert.equal(code, 3);
    assert.ok(stderr.includes(path.join(dir, 'run', 'homed.sock')), stderr);
  });
});

describe('homed over a stale socket', () => {
  it('removes the dead socket file and serves', async (t) => {
    const dir = makeTempDir();
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    fs.mkdirSync(path.join(dir, 'run'), { recursive: true, mode: 0o700 });
    await leaveStaleSocket(path.join(dir, 'run', 'homed.sock'));
    const homed = await startHomed({ dataDir: dir });
    t.after(() => homed.cleanup());
    const { code, stderr } = await runHomectl(['status'], { dataDir: dir });
    assert.equal(code, 0, stderr);
    assert.equal(await homed.stop(), 0);
    assert.ok(!fs.existsSync(homed.socket), 'the socket file outlived homed');
  });
});
