// homectl doctor --json against real homeds: with a provider that is down (a closed port), a data dir at 99 % of a
// small tmpfs and a plugin in `failed`, each is a finding with its fix hint; a clean homed leaves only what the
// running Node.js earns (past its end of life: a warning, so exit 1); with homed down, doctor says so and still
// checks what it can by itself.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { callOnce } from '../../../plugins/cli/client';
import { nodeVersionFinding } from '../../../plugins/cli/commands/doctor-node';
import { SocketApi, type HealthFinding } from '../../../protocol';
import { startFakeLlm, type FakeLlm } from '../../fake-llm/server';
import { fakeProviderEnv, makeTempDir, runHomectl, startHomed, waitFor, type HomedHandle } from '../../harness/homed';
import { FAST_POLICY } from '../../kernel/kernel-harness';

interface DoctorJson {
  findings: HealthFinding[];
  summary: { counts: Record<string, number>; overall: string; exit_code: number };
}

async function doctor(dataDir: string): Promise<{ code: number | null; json: DoctorJson }> {
  const { code, stdout, stderr } = await runHomectl(['doctor', '--json'], { dataDir, timeoutMs: 90_000 });
  assert.ok(stdout.trim().startsWith('{'), `doctor printed JSON: ${stdout}${stderr}`);
  return { code, json: JSON.parse(stdout) as DoctorJson };
}

/** A port nothing listens on: bound once, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Mounts an 8 MiB tmpfs on a new folder; null (and why) where mounting is not permitted. */
function mountTmpfs(): { dir: string } | { skip: string } {
  const dir = makeTempDir('doctor-tmpfs-');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m,mode=0750', 'tmpfs', dir], { stdio: 'pipe' });
    return { dir };
  } catch (error) {
    fs.rmdirSync(dir);
    return {
      skip: `mount -t tmpfs is not permitted here (${String((error as { stderr?: unknown }).stderr ?? error).trim()}); the 99 % full data dir is not tested`,
    };
  }
}

const nodeSeverity = nodeVersionFinding(process.version, new Date()).severity;

describe('homectl doctor --json', () => {
  it('names a provider that is down, a data dir at 99 % and a failed plugin, each with its fix hint', async (t) => {
    const mounted = mountTmpfs();
    if ('skip' in mounted) return t.skip(mounted.skip);
    let homed: HomedHandle | undefined;
    try {
      const port = await closedPort();
      homed = await startHomed({
        dataDir: mounted.dir,
        plugins: ['unsteady'],
        env: {
          HOMEAGENT_SUPERVISOR_POLICY: JSON.stringify(FAST_POLICY),
          HOMEAGENT_LLM_ADAPTER: 'openai',
          HOMEAGENT_LLM_BASE_URL: `http://127.0.0.1:${port}/v1`,
          HOMEAGENT_LLM_MODEL: 'down-model',
          HOMEAGENT_LLM_API_KEY: 'sk-test',
        },
      });
      const socket = homed.socket;
      const unsteady = (await callOnce(socket, SocketApi.PluginsList, {})).plugins.find((p) => p.name === 'unsteady');
      fs.writeFileSync(path.join(mounted.dir, 'plugin-data', 'unsteady', 'crash-at-start'), 'yes');
      process.kill(unsteady?.pid as number, 'SIGKILL');
      await waitFor(async () => (await callOnce(socket, SocketApi.PluginsList, {})).plugins.find((p) => p.name === 'unsteady')?.state === 'failed', {
        timeoutMs: 30_000,
        what: 'unsteady to be failed',
      });
      // Fill the tmpfs to 99 %: about 80 KiB of its 8 MiB stay free.
      const { bavail, bsize } = fs.statfsSync(mounted.dir);
      fs.writeFileSync(path.join(mounted.dir, 'filler'), Buffer.alloc(Math.max(0, bavail * bsize - 80 * 1024)));
      const { code, json } = await doctor(mounted.dir);
      const find = (check: string): HealthFinding => {
        const found = json.findings.find((f) => f.check === check);
        assert.ok(found, `no ${check} finding in ${JSON.stringify(json.findings, null, 1)}`);
        return found;
      };
      const provider = find('provider');
      assert.equal(provider.severity, 'error');
      assert.match(provider.detail, /ECONNREFUSED|could not be reached/);
      assert.match(provider.fix ?? '', /homectl config set llm\.provider\.NAME\.base_url/);
      const disk = find('disk');
      assert.equal(disk.severity, 'error');
      assert.match(disk.detail, /free of 8 MiB \(\d\.\d %\)/);
      assert.match(disk.fix ?? '', /du -sh/);
      const plugin = find('plugin:unsteady');
      assert.equal(plugin.severity, 'error');
      assert.equal(plugin.title, 'plugin unsteady is failed');
      assert.equal(plugin.fix, 'homectl plugins logs unsteady; homectl plugins restart unsteady');
      assert.equal(json.summary.overall, 'error');
      assert.equal(code, 1);
    } finally {
      await homed?.stop().catch(() => homed?.kill9());
      execFileSync('umount', [mounted.dir]);
      fs.rmdirSync(mounted.dir);
    }
  });

  describe('against a clean homed', () => {
    let llm: FakeLlm;
    let homed: HomedHandle;
    before(async () => {
      llm = await startFakeLlm();
      llm.setDefault({ text: 'ok' });
      homed = await startHomed({ env: fakeProviderEnv(llm) });
    });
    after(async () => {
      await homed?.cleanup();
      await llm?.close();
    });

    it('finds nothing but what the running Node.js earns; exit 0 when that is ok, else 1', async () => {
      const { code, json } = await doctor(homed.dataDir);
      const provider = json.findings.find((f) => f.check === 'provider');
      assert.equal(provider?.severity, 'ok', JSON.stringify(provider));
      assert.match(provider?.detail ?? '', /a 1-token completion took \d+ ms/);
      const needsWork = json.findings.filter((f) => f.severity === 'warning' || f.severity === 'error');
      const expected = nodeSeverity === 'warning' || nodeSeverity === 'error' ? ['node'] : [];
      assert.deepEqual(
        needsWork.map((f) => f.check),
        expected,
        JSON.stringify(needsWork),
      );
      // On Node 20 (past its end of life on 2026-04-30) this is 1; on Node 22 or 24 it is 0.
      assert.equal(code, expected.length > 0 ? 1 : 0);
      assert.equal(json.summary.exit_code, code);
      for (const check of ['homed', 'kernel', 'plugins', 'disk', 'data-dir', 'socket', 'service', 'node'])
        assert.ok(
          json.findings.some((f) => f.check === check),
          check,
        );
    });

    it('with homed down says so, and still checks the data dir and each database itself', async () => {
      await homed.stop();
      const { code, json } = await doctor(homed.dataDir);
      const down = json.findings.find((f) => f.check === 'homed');
      assert.equal(down?.severity, 'error');
      assert.match(down?.fix ?? '', /systemctl start homed/);
      for (const name of ['config.db', 'agent.db', 'graph.db', 'knowledge.db']) {
        assert.equal(json.findings.find((f) => f.check === `database:${name}`)?.severity, 'ok', name);
      }
      assert.ok(json.findings.some((f) => f.check === 'disk'));
      assert.equal(code, 1);
    });
  });
});
