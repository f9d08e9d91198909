// Section `pluginmgr`: installing a 1 MiB package through pluginmgr's HTTP API (the file as the body, and
// {url} from a local server) beside `homectl plugins install FILE --yes` and the socket's plugins/install
// of the same file, on one real homed, rounds interleaved. Each install is the plugin's upgrade in place
// and includes its start to ready, as a person waits for it.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { callOnce } from '../../plugins/cli/client';
import { SocketApi } from '../../protocol';
import { PluginmgrFiles } from '../../protocol/pluginmgr';
import { packPlugin } from '../pack/pack';
import { cleanEnv } from './clean-env';
import { HOMED_MAIN, REPO_ROOT } from './paths';
import { makeRow, type BenchRow } from './results';
import { median, msSince, sleep, withDeadline } from './stats';

export const PLUGINMGR_PLAN = { rounds: 7 };

const SECTION = 'pluginmgr';
const MIB = 1024 * 1024;
const HOMECTL_MAIN = path.join(REPO_ROOT, 'dist', 'plugins', 'cli', 'homectl.js');

/** Runs the section on a homed of its own in a throw-away data dir. */
export async function benchPluginmgr(plan = PLUGINMGR_PLAN): Promise<BenchRow[]> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'homed-bench-pluginmgr-'));
  // Searchable by other uids: as root the installed plugin runs under a uid of its own.
  fs.chmodSync(scratch, 0o711);
  const file = await buildPackage(scratch);
  const server = await serveFile(file);
  const homed = await startHomed(path.join(scratch, 'data'));
  try {
    const api = readApi(homed.dataDir);
    const socket = path.join(homed.dataDir, 'run', 'homed.sock');
    const times = { upload: [] as number[], url: [] as number[], homectl: [] as number[], socket: [] as number[] };
    const body = fs.readFileSync(file);
    for (let round = 0; round < plan.rounds; round++) {
      times.upload.push(await timed(() => post(api, body, 'application/octet-stream')));
      times.url.push(await timed(() => post(api, Buffer.from(JSON.stringify({ url: server.url })), 'application/json')));
      times.homectl.push(await timed(() => homectl(homed.dataDir, ['plugins', 'install', file, '--yes'])));
      times.socket.push(await timed(() => callOnce(socket, SocketApi.PluginsInstall, { file })));
    }
    const figure = (what: string) => `install of a ${(body.length / MIB).toFixed(1)} MiB package, ${what}`;
    const homectlMs = median(times.homectl);
    return [
      makeRow(SECTION, figure('HTTP API, file as the body'), median(times.upload), 'ms', 'homectl plugins install FILE', homectlMs, plan.rounds),
      makeRow(SECTION, figure('HTTP API, {url} from 127.0.0.1'), median(times.url), 'ms', 'homectl plugins install FILE', homectlMs, plan.rounds),
      makeRow(SECTION, figure('HTTP API, file as the body'), median(times.upload), 'ms', 'socket plugins/install FILE', median(times.socket), plan.rounds),
    ];
  } finally {
    await homed.stop();
    await server.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await withDeadline(work(), 60_000, 'an install');
  return msSince(start);
}

async function buildPackage(scratch: string): Promise<string> {
  const dir = path.join(scratch, 'src', 'bench-pluginmgr');
  fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'plugin.json'), JSON.stringify({ name: 'bench-pluginmgr', version: '1.0.0', entry: 'index.mjs', permissions: ['tools'] }));
  fs.writeFileSync(path.join(dir, 'index.mjs'), 'export default { tools: {} };\n');
  fs.writeFileSync(path.join(dir, 'assets', 'blob.bin'), randomBytes(MIB));
  return (await packPlugin(dir, path.join(scratch, 'hmap'))).file;
}

interface Homed {
  dataDir: string;
  stop(): Promise<void>;
}

async function startHomed(dataDir: string): Promise<Homed> {
  const proc: ChildProcess = spawn(process.execPath, [HOMED_MAIN, '-data', dataDir], { env: cleanEnv(), stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const socket = path.join(dataDir, 'run', 'homed.sock');
  const deadline = Date.now() + 60_000;
  for (;;) {
    const status = await callOnce(socket, SocketApi.KernelStatus, {}).catch(() => undefined);
    if (status && status.plugins.ready === status.plugins.enabled && fs.existsSync(path.join(dataDir, 'run', PluginmgrFiles.port))) break;
    if (Date.now() > deadline || proc.exitCode !== null) throw new Error('homed did not get ready within 60 s');
    await sleep(100);
  }
  return {
    dataDir,
    stop: async () => {
      proc.kill('SIGTERM');
      await withDeadline(exited, 30_000, 'homed to stop').catch(() => proc.kill('SIGKILL'));
    },
  };
}

function readApi(dataDir: string): { port: number; token: string } {
  const read = (name: string) => fs.readFileSync(path.join(dataDir, 'run', name), 'utf8').trim();
  return { port: Number(read(PluginmgrFiles.port)), token: read(PluginmgrFiles.token) };
}

function post(api: { port: number; token: string }, body: Buffer, type: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port: api.port,
        path: '/plugins',
        method: 'POST',
        headers: { authorization: `Bearer ${api.token}`, 'content-type': type, 'content-length': body.length },
      },
      (response) => {
        response.resume();
        response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(`pluginmgr answered ${response.statusCode}`))));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

function homectl(dataDir: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HOMECTL_MAIN, '-data', dataDir, ...args], { env: cleanEnv(), stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`homectl ${args.join(' ')} exited ${code}`))));
  });
}

async function serveFile(file: string): Promise<{ url: string; close(): Promise<void> }> {
  const data = fs.readFileSync(file);
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-length': String(data.length) }).end(data));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/bench-pluginmgr-1.0.0.hmap`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
