// Rung 3: the sandbox walls around third-party plugins, tried from inside real plugin processes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ToolInvokeRequest } from '../../../protocol';
import { describeSandbox } from '../../../kernel/sdk-server/sandbox-report';
import { hostCopyIn } from '../../../kernel/supervisor/host-copy';
import { findTool, permissionFlag, pluginUid } from '../../../kernel/supervisor/sandbox';
import { FAST_POLICY, FIXTURE_PLUGINS, REPO_ROOT, startTestKernel, type TestKernel } from '../kernel-harness';
import { nodeUnrunnableByOthers } from '../../harness/other-uid';

const isRoot = process.getuid?.() === 0;
const canUnshare = isRoot && findTool('unshare') !== null;
const MAX_OPEN_FILES = 64;
const SECRET = 'sk-test-secret-never-in-a-plugin';

interface Attempt {
  ok: boolean;
  code?: string;
  value?: unknown;
}

describe('the walls around a third-party plugin', () => {
  let t: TestKernel;
  let server: net.Server;
  let port = 0;
  const saved = { NODE_OPTIONS: process.env['NODE_OPTIONS'], KEY: process.env['HOMEAGENT_LLM_API_KEY'] };
  const call = async <T = Attempt>(plugin: string, tool: string, args: object = {}): Promise<T> => {
    const proc = t.kernel.supervisor.get(plugin).process;
    assert.ok(proc, `${plugin} has a running process`);
    return (await proc.channel.call(ToolInvokeRequest, { name: tool, args }, 3000)).result as T;
  };
  const wall = (plugin: string, name: string): { active: boolean; note: string } => {
    const found = describeSandbox(t.kernel.supervisor.get(plugin)).find((w) => w.wall === name);
    assert.ok(found, `wall ${name} is reported`);
    return found;
  };

  before(async () => {
    server = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
    // What the kernel's environment holds must not reach a plugin.
    process.env['NODE_OPTIONS'] = '--max-old-space-size=512';
    process.env['HOMEAGENT_LLM_API_KEY'] = SECRET;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'homed-sandbox-'));
    // The same probe as a built-in (trusted, so unsandboxed), and as a third-party plugin granted `net`.
    const builtinDir = path.join(dataDir, 'builtins');
    copyProbeAs(path.join(builtinDir, 'sandbox-trusted'), {});
    copyProbeAs(path.join(dataDir, 'plugins', 'sandbox-probe-net'), { description: 'The sandbox probe, granted net', permissions: ['net'] });
    t = await startTestKernel(['sandbox-probe'], { ...FAST_POLICY, sandbox: { maxOpenFiles: MAX_OPEN_FILES } }, { dataDir, builtinDir });
  });
  after(async () => {
    await t?.close();
    server?.close();
    for (const [key, value] of [
      ['NODE_OPTIONS', saved.NODE_OPTIONS],
      ['HOMEAGENT_LLM_API_KEY', saved.KEY],
    ] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  test('a sandboxed plugin still starts and answers', async () => {
    for (const name of ['sandbox-probe', 'sandbox-probe-net', 'sandbox-trusted']) {
      assert.equal(t.kernel.supervisor.get(name).status().state, 'ready', `${name} is ready`);
      assert.deepEqual(await call(name, 'echo', { hi: 1 }), { echo: { hi: 1 } });
    }
    assert.equal(t.kernel.supervisor.get('sandbox-trusted').record.kind, 'builtin');
  });

  test('it reads its own folder but not the kernel database, /etc/hostname or another plugin', async () => {
    const probe = t.kernel.supervisor.get('sandbox-probe');
    assert.equal((await call('sandbox-probe', 'read', { path: path.join(probe.record.dir, 'plugin.json') })).ok, true);
    const config = path.join(t.dataDir, 'config.db');
    assert.ok(fs.existsSync(config), 'the kernel database exists');
    for (const target of [config, '/etc/hostname', path.join(t.kernel.supervisor.get('sandbox-probe-net').record.dir, 'plugin.json')]) {
      assert.deepEqual(await call('sandbox-probe', 'read', { path: target }), { ok: false, code: 'ERR_ACCESS_DENIED' }, target);
    }
    assert.equal((await call('sandbox-trusted', 'read', { path: config })).ok, true, 'a built-in is trusted');
  });

  test('it writes only inside its data folder', async () => {
    const probe = t.kernel.supervisor.get('sandbox-probe');
    const inside = path.join(probe.dataDir, 'note.txt');
    assert.equal((await call('sandbox-probe', 'write', { path: inside })).ok, true);
    assert.equal(fs.readFileSync(inside, 'utf8'), 'probe');
    for (const target of [path.join(t.dataDir, 'evil.txt'), path.join(probe.record.dir, 'index.mjs'), path.join(os.tmpdir(), `evil-${process.pid}`)]) {
      assert.deepEqual(await call('sandbox-probe', 'write', { path: target }), { ok: false, code: 'ERR_ACCESS_DENIED' }, target);
    }
    assert.equal(fs.existsSync(path.join(t.dataDir, 'evil.txt')), false);
    assert.match(fs.readFileSync(path.join(probe.record.dir, 'index.mjs'), 'utf8'), /forbidden thing/);
  });

  test('it starts no process, no worker, no addon and no WASI', async () => {
    assert.deepEqual(await call('sandbox-probe', 'spawn'), { ok: false, code: 'ERR_ACCESS_DENIED' });
    assert.deepEqual(await call('sandbox-probe', 'worker'), { ok: false, code: 'ERR_ACCESS_DENIED' });
    const addon = await call('sandbox-probe', 'addon');
    assert.equal(addon.ok, false);
    assert.notEqual(addon.code, 'ERR_DLOPEN_FAILED', 'refused before trying to load');
    assert.equal((await call('sandbox-probe', 'wasi')).ok, false);
    assert.deepEqual(await call('sandbox-trusted', 'spawn'), { ok: true, value: 0 }, 'a built-in may');
  });

  test('it sees the allow-listed environment only', async () => {
    const env = await call<Record<string, string>>('sandbox-probe', 'env');
    assert.equal(env['NODE_OPTIONS'], undefined);
    assert.equal(env['HOMEAGENT_LLM_API_KEY'], undefined);
    assert.ok(!Object.values(env).includes(SECRET));
  });

  test('it opens files up to its cap and no more', async (ctx) => {
    if (!findTool('prlimit')) return ctx.skip('prlimit (util-linux) is not installed here');
    const result = await call<{ opened: number; code: string | null }>('sandbox-probe', 'openFiles', { max: MAX_OPEN_FILES * 4 });
    assert.equal(result.code, 'EMFILE');
    assert.ok(result.opened < MAX_OPEN_FILES && result.opened > MAX_OPEN_FILES / 2, `opened ${result.opened}`);
    assert.match(wall('sandbox-probe', 'open-files-cap').note, new RegExp(`RLIMIT_NOFILE ${MAX_OPEN_FILES}`));
    const trusted = await call<{ opened: number }>('sandbox-trusted', 'openFiles', { max: MAX_OPEN_FILES * 4 });
    assert.equal(trusted.opened, MAX_OPEN_FILES * 4);
  });

  test('without net it cannot reach a local server; with net it can', async (ctx) => {
    assert.deepEqual(await call('sandbox-trusted', 'connect', { port }), { ok: true }, 'the server answers');
    assert.deepEqual(await call('sandbox-probe-net', 'connect', { port }), { ok: true });
    assert.equal(wall('sandbox-probe-net', 'no-network').active, false);
    if (!canUnshare) {
      assert.equal(wall('sandbox-probe', 'no-network').active, false);
      return ctx.skip('not root or no unshare here: the network wall is off, and reported so');
    }
    const refused = await call('sandbox-probe', 'connect', { port });
    assert.equal(refused.ok, false);
    assert.match(refused.code ?? '', /ENETUNREACH|ECONNREFUSED/);
    assert.equal(wall('sandbox-probe', 'no-network').active, true);
  });

  test('as root it runs under a uid of its own that owns its data folder', async (ctx) => {
    const me = await call<{ uid: number; gid: number; groups: number[]; cwd: string }>('sandbox-probe', 'whoami');
    const probe = t.kernel.supervisor.get('sandbox-probe');
    assert.equal(me.cwd, probe.dataDir);
    if (!isRoot || !findTool('setpriv')) {
      assert.equal(wall('sandbox-probe', 'own-uid').active, false);
      return ctx.skip('not root here: the uid wall is off, and reported so');
    }
    const unrunnable = nodeUnrunnableByOthers();
    if (unrunnable) {
      assert.match(wall('sandbox-probe', 'own-uid').note, /runs as the homed user/, 'the wall is off, and reported so');
      return ctx.skip(unrunnable);
    }
    const uid = pluginUid('sandbox-probe');
    assert.deepEqual([me.uid, me.gid], [uid, uid]);
    assert.ok(
      me.groups.every((g) => g === uid),
      `no supplementary groups: ${me.groups.join(',')}`,
    );
    assert.equal(fs.statSync(probe.dataDir).uid, uid);
    assert.equal(fs.statSync(path.join(probe.dataDir, 'note.txt')).uid, uid);
    assert.notEqual(pluginUid('sandbox-probe-net'), uid);
    assert.equal((await call<{ uid: number }>('sandbox-trusted', 'whoami')).uid, process.getuid?.());
    assert.match(wall('sandbox-probe', 'own-uid').note, new RegExp(`uid ${uid}`));
    // Without Node's wall, the uid alone still keeps it out of the kernel database and other data folders.
    const asPlugin = (file: string): number | null =>
      spawnSync(findTool('setpriv')!, [`--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--', 'cat', file], { stdio: 'ignore' }).status;
    assert.notEqual(asPlugin(path.join(t.dataDir, 'config.db')), 0);
    fs.writeFileSync(path.join(t.kernel.supervisor.get('sandbox-probe-net').dataDir, 'private'), 'x');
    assert.notEqual(asPlugin(path.join(t.kernel.supervisor.get('sandbox-probe-net').dataDir, 'private')), 0);
    assert.equal(asPlugin(path.join(probe.dataDir, 'note.txt')), 0);
  });

  test('it runs its host from the copy in the data dir; a built-in runs the package itself', async () => {
    const copy = hostCopyIn(t.dataDir);
    const sandboxed = await call<{ script: string; flags: string[] }>('sandbox-probe', 'argv');
    assert.equal(sandboxed.script, copy.main);
    assert.ok(sandboxed.flags.includes(`--allow-fs-read=${copy.root}`), sandboxed.flags.join(' '));
    assert.deepEqual(
      sandboxed.flags.filter((flag) => flag.includes(REPO_ROOT)),
      [],
      'nothing of the package itself',
    );
    const trusted = await call<{ script: string }>('sandbox-trusted', 'argv');
    assert.equal(trusted.script, path.join(REPO_ROOT, 'dist', 'plugin-host', 'main.js'));
  });

  test('info reports each wall, active or not, with why', () => {
    const walls = describeSandbox(t.kernel.supervisor.get('sandbox-probe'));
    const perm = walls.find((w) => w.wall === 'node-permission-model');
    assert.equal(perm?.active, true);
    assert.match(perm?.note ?? '', new RegExp(permissionFlag()));
    assert.match(perm?.note ?? '', /writes only .*plugin-data/);
    const trusted = describeSandbox(t.kernel.supervisor.get('sandbox-trusted'));
    for (const name of ['node-permission-model', 'open-files-cap', 'own-uid', 'no-network']) {
      assert.deepEqual(
        trusted.find((w) => w.wall === name),
        { wall: name, active: false, note: 'not applied: built-in plugins are trusted' },
      );
    }
  });

  test('cold start, fork to ready: sandboxed vs trusted', async (ctx) => {
    const sup = t.kernel.supervisor;
    const median = async (name: string): Promise<number> => {
      const times: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        await sup.control(name, 'stop');
        const started = process.hrtime.bigint();
        await sup.control(name, 'start');
        times.push(Number(process.hrtime.bigint() - started) / 1e6);
        assert.equal(sup.get(name).status().state, 'ready');
      }
      return times.sort((a, b) => a - b)[2]!;
    };
    const sandboxed = await median('sandbox-probe');
    const trusted = await median('sandbox-trusted');
    ctx.diagnostic(`cold start to ready, median of 5: sandboxed ${sandboxed.toFixed(0)} ms, trusted ${trusted.toFixed(0)} ms`);
  });
});

test('permission flag spelling by node version', () => {
  assert.equal(permissionFlag('20.20.2'), '--experimental-permission');
  assert.equal(permissionFlag('22.12.0'), '--experimental-permission');
  assert.equal(permissionFlag('22.13.0'), '--permission');
  assert.equal(permissionFlag('23.4.0'), '--experimental-permission');
  assert.equal(permissionFlag('24.0.0'), '--permission');
});

/** Copies the probe fixture to `dir`, named after the folder, with manifest fields changed. */
function copyProbeAs(dir: string, changes: Record<string, unknown>): void {
  fs.cpSync(path.join(FIXTURE_PLUGINS, 'sandbox-probe'), dir, { recursive: true });
  const file = path.join(dir, 'plugin.json');
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  fs.writeFileSync(file, JSON.stringify({ ...manifest, ...changes, name: path.basename(dir) }));
}
