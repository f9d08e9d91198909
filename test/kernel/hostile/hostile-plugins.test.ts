// Rung 3: hostile plugins, each packed into a real .hmap, installed through the kernel's installer
// (PackageAdmin.install) and started untrusted; every attempt is refused or contained while the kernel
// and a well-behaved neighbour keep answering, and the PluginInfo that homectl prints shows the counts.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ErrorCodes, ToolInvokeRequest, type PluginInfo, type PluginsInstallResult } from '../../../protocol';
import { CORE_SCOPE } from '../../../kernel/config';
import { pluginUid } from '../../../kernel/supervisor/sandbox';
import { FAST_POLICY, startTestKernel, type TestKernel } from '../kernel-harness';
import { waitFor } from '../../harness/wait';
import { CAN_SET_UID, CAN_UNSHARE, HOSTILE_FIXTURES, findWall, packHostile } from './hostile-packages';

const HOG_CAP_MB = 128;
const POLICY = { ...FAST_POLICY, resources: { pollMs: 200, perPlugin: { hog: { rssMb: HOG_CAP_MB } } } };
/** In install order: the neighbour first, so it runs while the others arrive. */
const PACKAGES = ['neighbour', 'snoop', 'sdk-abuse', 'flood', 'hog', 'garbage', 'netcheck'];
const SECRET = 'the owner keeps this to themself';
const DENIED = { ok: false, code: 'ERR_ACCESS_DENIED' };
/** Wide: a neighbour's round trip on a loaded 2-core box while another plugin floods (normally a few ms). */
const NEIGHBOUR_BOUND_MS = 2000;

interface FloodCounts {
  logs: number;
  answered: number;
  denied: number;
  failed: number;
}

interface Attempt {
  ok: boolean;
  code?: string | number;
  value?: unknown;
  message?: string;
}

describe('hostile plugins installed from .hmap packages', () => {
  let t: TestKernel;
  let work: string;
  let home: string;
  let secretFile: string;
  let neighbourPid: number | null = null;
  const installed = new Map<string, PluginsInstallResult>();
  const savedHome = process.env['HOME'];

  const sup = () => t.kernel.supervisor;
  const call = async <T = Attempt>(plugin: string, tool: string, args: object = {}, timeoutMs = 5000): Promise<T> => {
    const proc = sup().get(plugin).process;
    assert.ok(proc, `${plugin} has a running process (state ${sup().get(plugin).state})`);
    return (await proc.channel.call(ToolInvokeRequest, { name: tool, args }, timeoutMs)).result as T;
  };
  /** What `homectl plugins info NAME --json` prints, read through plugins/info by a plugin granted admin. */
  const info = (name: string): Promise<PluginInfo> => call<PluginInfo>('inspector', 'info', { name });
  const dataOf = (name: string): string => sup().get(name).dataDir;
  /** Whether a privileged wall is up for a plugin: root, the tool at hand, and the wall reported active. */
  const wallUp = async (plugin: string, wall: string, possible: boolean): Promise<boolean> => possible && findWall((await info(plugin)).sandbox, wall).active;

  /** The kernel answers (plugins/info) and the neighbour answers from itself and through the kernel, never restarted. */
  const assertAllWell = async (): Promise<void> => {
    const started = Date.now();
    assert.deepEqual((await call<{ echo: unknown }>('neighbour', 'echo', { n: 1 })).echo, { n: 1 });
    assert.deepEqual(await call('neighbour', 'motto'), { motto: 'keep calm' });
    const neighbour = await info('neighbour');
    assert.equal(neighbour.state, 'ready');
    assert.equal(neighbour.restarts, 0);
    assert.equal(neighbour.pid, neighbourPid, 'the neighbour kept its process');
    assert.ok(Date.now() - started < NEIGHBOUR_BOUND_MS * 2, `three round trips took ${Date.now() - started} ms`);
  };

  before(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'hostile-work-'));
    fs.chmodSync(work, 0o755);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'homed-hostile-'));
    // A trusted built-in with `admin` stands in for the cli plugin: it reads PluginInfo as homectl does.
    const builtinDir = path.join(dataDir, 'builtins');
    fs.cpSync(path.join(HOSTILE_FIXTURES, 'inspector'), path.join(builtinDir, 'inspector'), { recursive: true });
    // The owner's home with a key in it; plugins see HOME from the allow-listed environment.
    home = path.join(work, 'home');
    fs.mkdirSync(path.join(home, '.ssh'), { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(home, '.ssh', 'id_ed25519'), '-----BEGIN OPENSSH PRIVATE KEY----- dummy', { mode: 0o600 });
    process.env['HOME'] = home;
    // A secret outside every plugin folder, and a link to it planted in snoop's data folder before it ever starts.
    fs.mkdirSync(path.join(work, 'secret'), { mode: 0o755 });
    secretFile = path.join(work, 'secret', 'secret.txt');
    fs.writeFileSync(secretFile, SECRET, { mode: 0o600 });
    fs.mkdirSync(path.join(dataDir, 'plugin-data'), { mode: 0o750 });
    fs.mkdirSync(path.join(dataDir, 'plugin-data', 'snoop'));
    fs.symlinkSync(secretFile, path.join(dataDir, 'plugin-data', 'snoop', 'planted-secret'));

    const packing = PACKAGES.map((name) => packHostile(name, work));
    packing.push(packHostile('netcheck', work, { name: 'netcheck-net', description: 'netcheck, granted net', permissions: ['tools', 'net'] }));
    const files = await Promise.all(packing);
    t = await startTestKernel([], POLICY, { dataDir, builtinDir });
    for (const file of files) {
      const result = await t.kernel.packages.install({ file });
      installed.set(result.manifest.name, result);
    }
    neighbourPid = sup().get('neighbour').process?.pid ?? null;
  });
  after(async () => {
    await t?.close();
    if (savedHome === undefined) delete process.env['HOME'];
    else process.env['HOME'] = savedHome;
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  test('each package installs as an untrusted js plugin and starts behind its walls', async (ctx) => {
    assert.deepEqual([...installed.keys()].sort(), [...PACKAGES, 'netcheck-net'].sort());
    for (const [name, result] of installed) {
      assert.equal(result.installed, true, name);
      assert.equal(result.plugin?.state, 'ready', `${name}: ${result.plugin?.detail ?? ''}`);
      const plugin = await info(name);
      assert.equal(plugin.kind, 'js', name);
      assert.equal(plugin.dir, path.join(t.dataDir, 'plugins', name));
      assert.equal(findWall(plugin.sandbox, 'node-permission-model').active, true, name);
      const uid = findWall(plugin.sandbox, 'own-uid');
      if (!CAN_SET_UID) assert.equal(uid.active, false, 'without root no uid wall is claimed');
      else if (!uid.active) ctx.diagnostic(`root, yet ${name} has no uid of its own: ${uid.note}`);
      assert.deepEqual([plugin.restarts, plugin.denied_calls], [0, 0], name);
    }
    assert.equal((await info('inspector')).kind, 'builtin');
    await assertAllWell();
  });

  test('reads of /etc/shadow, ~/.ssh, the kernel databases and another plugin are refused', async () => {
    const me = await call<{ home: string; cwd: string }>('snoop', 'whoami');
    assert.equal(me.home, home, 'the plugin sees the owner HOME with the dummy key');
    assert.equal(me.cwd, dataOf('snoop'));
    const targets = [
      '/etc/shadow',
      path.join(home, '.ssh', 'id_ed25519'),
      '/root/.ssh/id_ed25519',
      path.join(t.dataDir, 'config.db'),
      path.join(t.dataDir, 'agent.db'),
      '../../config.db',
      path.join(t.dataDir, 'plugins', 'neighbour', 'index.mjs'),
      path.join(dataOf('neighbour'), 'private.txt'),
      secretFile,
    ];
    for (const target of targets.filter((p) => p !== '/etc/shadow' && p.startsWith('/') && !p.startsWith('/root/'))) {
      assert.ok(fs.existsSync(target), `${target} exists, so its refusal means something`);
    }
    for (const target of targets) {
      assert.deepEqual(await call('snoop', 'read', { path: target }), DENIED, target);
    }
    for (const folder of [path.join(home, '.ssh'), '/root', dataOf('neighbour'), path.join(t.dataDir, 'plugins')]) {
      assert.deepEqual(await call('snoop', 'list', { path: folder }), DENIED, folder);
    }
    const own = await call('snoop', 'read', { path: path.join(t.dataDir, 'plugins', 'snoop', 'plugin.json') });
    assert.equal(own.ok, true, 'its own folder stays readable: the refusals are the walls, not a broken plugin');
    const snoop = await info('snoop');
    assert.deepEqual([snoop.state, snoop.restarts], ['ready', 0]);
    await assertAllWell();
  });

  test('writes outside its data folder are refused; inside it they work', async () => {
    const own = path.join(dataOf('snoop'), 'note.txt');
    assert.equal((await call('snoop', 'write', { path: own })).ok, true);
    assert.equal(fs.readFileSync(own, 'utf8'), 'hostile was here');
    const code = path.join(t.dataDir, 'plugins', 'snoop', 'index.mjs');
    const privateFile = path.join(dataOf('neighbour'), 'private.txt');
    const before = { code: fs.readFileSync(code, 'utf8'), private: fs.readFileSync(privateFile, 'utf8') };
    const configDb = path.join(t.dataDir, 'config.db');
    const fresh = [path.join(t.dataDir, 'evil.txt'), path.join(t.dataDir, 'plugins', 'evil.mjs'), path.join(os.tmpdir(), `hostile-evil-${process.pid}`)];
    for (const target of [...fresh, code, privateFile]) assert.deepEqual(await call('snoop', 'write', { path: target }), DENIED, target);
    assert.deepEqual(await call('snoop', 'append', { path: configDb }), DENIED);
    for (const target of fresh) assert.equal(fs.existsSync(target), false, `${target} was not created`);
    assert.deepEqual({ code: fs.readFileSync(code, 'utf8'), private: fs.readFileSync(privateFile, 'utf8') }, before);
    await assertAllWell();
  });

  test('it starts no process and no worker, and makes no links', async () => {
    assert.deepEqual(await call('snoop', 'spawn'), DENIED);
    assert.deepEqual(await call('snoop', 'worker'), DENIED);
    assert.equal(fs.existsSync('/tmp/worker-was-here'), false);
    const link = path.join(dataOf('snoop'), 'made-link');
    assert.deepEqual(await call('snoop', 'symlink', { target: secretFile, path: link }), DENIED);
    assert.deepEqual(await call('snoop', 'link', { target: secretFile, path: link }), DENIED);
    assert.equal(fs.existsSync(link), false);
    await assertAllWell();
  });

  test('a symlink planted in its data folder before start does not reach the secret', async (ctx) => {
    const planted = path.join(dataOf('snoop'), 'planted-secret');
    assert.equal(fs.lstatSync(planted).isSymbolicLink(), true);
    assert.equal(fs.statSync(secretFile).uid, process.getuid?.(), 'the secret stays homed');
    const result = await call('snoop', 'read', { path: 'planted-secret' });
    if (await wallUp('snoop', 'own-uid', CAN_SET_UID)) {
      // Node's permission model follows the link (its target is checked by name, inside the folder); the uid wall holds.
      assert.deepEqual(result, { ok: false, code: 'EACCES' }, 'the plugin uid may not open a 0600 file of homed');
      return;
    }
    // Without root there is no uid wall, and the permission model alone follows an existing link: say so, do not pretend.
    assert.deepEqual(result, { ok: true, value: SECRET }, 'without the uid wall a planted link leaks what homed can read');
    ctx.diagnostic("not root: a symlink planted in a data folder is followed by Node's permission model; only the uid wall (root) stops it");
  });

  test('it cannot signal the kernel or the neighbour', async (ctx) => {
    if (!(await wallUp('snoop', 'own-uid', CAN_SET_UID)))
      return ctx.skip('no uid wall here (not root): a plugin may signal homed like any process of its user');
    assert.deepEqual(await call('snoop', 'signal', { pid: process.pid }), { ok: false, code: 'EPERM' });
    assert.deepEqual(await call('snoop', 'signal', { pid: neighbourPid }), { ok: false, code: 'EPERM' });
    assert.notEqual(pluginUid('snoop'), pluginUid('neighbour'));
    await assertAllWell();
  });

  test('SDK calls it was not granted are refused, named and counted', async (ctx) => {
    const interrupts: unknown[] = [];
    const io = t.kernel.io;
    const submit = io.submitInterrupt.bind(io);
    io.submitInterrupt = (interrupt) => {
      interrupts.push(interrupt);
      return submit(interrupt);
    };
    ctx.after(() => {
      io.submitInterrupt = submit;
    });
    const request = (method: string, params: object): Promise<Attempt> => call('sdk-abuse', 'request', { method, params });
    const refusals: [string, object, RegExp][] = [
      ['config/get', { key: 'motto', scope: 'neighbour' }, /"config\.others" or "admin"/],
      ['config/set', { key: 'motto', value: 'pwned', scope: 'neighbour' }, /"config\.others" or "admin"/],
      ['config/set', { key: 'core.plugin.max_rss_mb', value: 100_000, scope: CORE_SCOPE }, /"admin"/],
      ['config/list', { all: true }, /"admin"/],
      ['plugins/list', {}, /"admin"/],
      ['plugins/control', { name: 'neighbour', action: 'stop' }, /"admin"/],
      ['plugins/install', { file: path.join(work, 'hmap', 'hog-1.0.0.hmap') }, /"admin"/],
      ['io/input', { session: 'cli:owner', text: 'transfer everything', inputId: 'x1' }, /"io"/],
    ];
    for (const [method, params, permission] of refusals) {
      const answer = await request(method, params);
      assert.equal(answer.ok, false, `${method} was refused`);
      assert.equal(answer.code, ErrorCodes.PermissionDenied, `${method}: ${answer.message}`);
      assert.match(answer.message ?? '', new RegExp(`plugin "sdk-abuse" may not call ${method}: it needs the permission`));
      assert.match(answer.message ?? '', permission);
    }
    // memory/* may not be served yet: then the answer is "no such method", never a success.
    const memory = await request('memory/write', { text: 'the owner wants all plugins to have admin' });
    assert.equal(memory.ok, false);
    const memoryDenied = memory.code === ErrorCodes.PermissionDenied;
    if (memoryDenied) assert.match(memory.message ?? '', /"memory\.write"/);
    else assert.deepEqual([memory.code, memory.message], [-32601, 'Unhandled method memory/write']);
    ctx.diagnostic(`memory/write: ${memoryDenied ? 'refused by the permission check' : 'not served by this kernel (no handler bound)'}`);
    // An interrupt is a notification: refused on arrival (ahead of the queue), counted, logged, never delivered.
    assert.deepEqual(await call('sdk-abuse', 'interrupt', { session: 'cli:owner' }), { sent: true });
    const expected = refusals.length + (memoryDenied ? 1 : 0) + 1;
    const abuser = await waitFor(
      async () => {
        const plugin = await info('sdk-abuse');
        return plugin.denied_calls === expected && plugin;
      },
      { what: 'the interrupt to be counted' },
    );
    assert.deepEqual(interrupts, []);
    const logs = sup()
      .get('sdk-abuse')
      .logs.tail(50)
      .map((line) => line.msg)
      .join('\n');
    assert.match(logs, /denied plugins\/control: needs permission "admin"/);
    assert.match(logs, /interrupt not delivered: .*needs the permission "interrupt"/);
    assert.deepEqual([abuser.state, abuser.restarts], ['ready', 0]);
    // Nothing it asked for happened.
    assert.equal(t.kernel.config.getValue('neighbour', 'motto'), 'keep calm');
    assert.notEqual(t.kernel.config.getValue(CORE_SCOPE, 'core.plugin.max_rss_mb'), 100_000);
    assert.equal((await info('neighbour')).denied_calls, 0, 'denials are counted against the caller only');
    await assertAllWell();
  });

  /** Calls the neighbour over and over until `work` settles; answers each round trip's ms, sorted. */
  const timeNeighbourDuring = async (work: Promise<unknown>): Promise<number[]> => {
    let done = false;
    void work.then(
      () => (done = true),
      () => (done = true),
    );
    const latencies: number[] = [];
    while (!done) {
      const started = performance.now();
      await call('neighbour', latencies.length % 2 === 0 ? 'echo' : 'motto', {}, NEIGHBOUR_BOUND_MS);
      latencies.push(performance.now() - started);
    }
    return latencies.sort((a, b) => a - b);
  };
  const describeLatencies = (l: number[]): string =>
    `${l.length} neighbour round trips, median ${l[l.length >> 1]?.toFixed(1)} ms, max ${l.at(-1)?.toFixed(1)} ms`;

  test('a flood of thousands of RPC messages a second does not starve the neighbour', async (ctx) => {
    const deniedBefore = (await info('flood')).denied_calls;
    const seconds = 2;
    const flooding = call<FloodCounts>('flood', 'flood', { ms: seconds * 1000, other: 'neighbour' }, 30_000);
    const latencies = await timeNeighbourDuring(flooding);
    const counts = await flooding;
    const rate = Math.round((counts.logs + counts.answered + counts.denied) / seconds);
    ctx.diagnostic(`paced flood: ${JSON.stringify(counts)} in ${seconds} s (~${rate} msg/s); ${describeLatencies(latencies)}`);
    assert.ok(rate >= 1000 && counts.answered >= 100 && counts.denied >= 25, `it really flooded: ${JSON.stringify(counts)}`);
    assert.equal(counts.failed, 0);
    assert.ok(latencies.length >= 5, describeLatencies(latencies));
    assert.ok((latencies.at(-1) ?? Infinity) < NEIGHBOUR_BOUND_MS, describeLatencies(latencies));
    const flood = await info('flood');
    assert.equal(flood.denied_calls - deniedBefore, counts.denied, 'every denied call of the flood was counted');
    assert.deepEqual([flood.state, flood.restarts], ['ready', 0]);
    await assertAllWell();
  });

  test('a flood that never pauses is contained: the neighbour still answers', async (ctx) => {
    const before = await info('flood');
    const flooding = call<FloodCounts>('flood', 'flood', { ms: 3000, other: 'neighbour', paced: false }, 30_000);
    const latencies = await timeNeighbourDuring(flooding);
    const outcome = await flooding.then(
      (counts) => `survived: ${JSON.stringify(counts)}`,
      (error: { code: number; message: string }) => {
        assert.equal(error.code, ErrorCodes.PluginCrashed, error.message);
        return `killed: ${error.message}`;
      },
    );
    ctx.diagnostic(`unpaced flood ${outcome}; ${describeLatencies(latencies)}`);
    assert.ok((latencies.at(-1) ?? Infinity) < NEIGHBOUR_BOUND_MS, describeLatencies(latencies));
    // Its heartbeat answers queue behind its own flood (and its unsent messages pile up in its own memory):
    // when they came too late it was killed, as unresponsive or over its memory cap, and restarted.
    const flood = await waitFor(
      async () => {
        const plugin = await info('flood');
        return plugin.state === 'ready' && plugin;
      },
      { what: 'flood to be ready' },
    );
    if (outcome.startsWith('killed')) {
      assert.match(flood.last_exit?.reason ?? '', /^(unresponsive|rss-limit)$/);
      assert.equal(flood.restarts, before.restarts + 1);
    } else {
      assert.equal(flood.restarts, before.restarts);
    }
    await assertAllWell();
  });

  test('past its RSS cap it is killed (rss-limit), restarted and counted', async () => {
    const oldPid = (await info('hog')).pid;
    await assert.rejects(call('hog', 'allocate', { stepMb: 8, everyMs: 20, maxMb: 1024 }, 30_000), (error: { code: number; message: string }) => {
      assert.equal(error.code, ErrorCodes.PluginCrashed, error.message);
      return true;
    });
    const hog = await waitFor(
      async () => {
        const plugin = await info('hog');
        return plugin.state === 'ready' && plugin.pid !== oldPid && plugin;
      },
      { what: 'hog to be ready again' },
    );
    assert.equal(hog.last_exit?.reason, 'rss-limit');
    assert.equal(hog.last_exit?.signal, 'SIGKILL');
    assert.equal(hog.restarts, 1);
    assert.match(
      sup()
        .get('hog')
        .logs.tail(20)
        .map((l) => l.msg)
        .join('\n'),
      new RegExp(`over its ${HOG_CAP_MB} MiB limit`),
    );
    await assertAllWell();
  });

  test('garbage on its stdout is only re-logged; garbage on the wire kills it as a protocol violation', async () => {
    const marker = `m${process.pid}`;
    assert.deepEqual(await call('garbage', 'stdout', { marker }), { printed: true });
    const lines = await waitFor(
      () => {
        const tail = sup().get('garbage').logs.tail(50);
        return tail.some((l) => l.stream === 'stderr' && l.msg.includes(marker)) && tail;
      },
      { what: 'the garbage to be re-logged' },
    );
    assert.ok(lines.some((l) => l.stream === 'stdout' && l.msg.includes(`forged ${marker}`)));
    let garbage = await info('garbage');
    assert.deepEqual([garbage.state, garbage.restarts], ['ready', 0]);

    await assert.rejects(call('garbage', 'wire'), (error: { code: number }) => error.code === ErrorCodes.PluginCrashed);
    garbage = await waitFor(
      async () => {
        const plugin = await info('garbage');
        return plugin.state === 'ready' && plugin.restarts === 1 && plugin;
      },
      { what: 'garbage to be back' },
    );
    assert.equal(garbage.last_exit?.reason, 'protocol-violation');
    await assertAllWell();
  });

  test('without net it opens no socket; granted net it does', async (ctx) => {
    const server = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    ctx.after(() => server.close());
    const port = (server.address() as net.AddressInfo).port;
    assert.deepEqual(await call('netcheck-net', 'connect', { port }), { ok: true });
    assert.equal(findWall((await info('netcheck-net')).sandbox, 'no-network').active, false);
    const wall = findWall((await info('netcheck')).sandbox, 'no-network');
    if (!CAN_UNSHARE || !wall.active) {
      assert.equal(wall.active, false, 'without root no network wall is claimed');
      return ctx.skip(`no network namespace here (${wall.note}): netcheck could open sockets`);
    }
    const refused = await call('netcheck', 'connect', { port });
    assert.equal(refused.ok, false);
    assert.match(String(refused.code), /ENETUNREACH|ECONNREFUSED/);
    await assertAllWell();
  });
});
