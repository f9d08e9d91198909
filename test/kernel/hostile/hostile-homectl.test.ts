// End to end: hostile packages installed with the real homectl into a real homed; homectl shows what they
// asked for, and afterwards the counts (denied calls, restarts, last exit) and the walls, while homed and
// its cli plugin keep answering.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ConfigEntry, LogLine, PluginInfo, PluginStatus } from '../../../protocol';
import { makeTempDir, runHomectl, startHomed, waitFor, type HomedHandle } from '../../harness/homed';
import { FAST_POLICY } from '../kernel-harness';
import { CAN_SET_UID, CAN_UNSHARE, findWall, packHostile } from './hostile-packages';

const LOOP_EXITS = FAST_POLICY.restart.loop.exits;
/** What the intruder tries at start; each line of its log reads `attempt <what>: <outcome>`. */
const REFUSED_FILES = ['read /etc/shadow', 'list ~/.ssh', 'read config.db', 'read agent.db', "list cli's data", 'write the data dir', 'spawn a process'];
const REFUSED_CALLS = ['plugins/list', 'plugins/control stop cli', "config/get cli's socket_path", 'config/set its own memory cap'];
/** The refused requests, and the interrupt, are each counted once. */
const INTRUDER_DENIALS = REFUSED_CALLS.length + 1;

describe('hostile packages installed with homectl into a running homed', () => {
  let homed: HomedHandle;
  let work: string;
  const ctl = (...args: string[]) => runHomectl(args, { dataDir: homed.dataDir, cwd: work });
  const json = async <T>(...args: string[]): Promise<T> => {
    const { code, stdout, stderr } = await ctl(...args, '--json');
    assert.equal(code, 0, `homectl ${args.join(' ')}: ${stderr}`);
    return JSON.parse(stdout) as T;
  };
  const pidOf = async (name: string): Promise<number | null | undefined> => (await json<PluginStatus[]>('plugins', 'list')).find((p) => p.name === name)?.pid;

  before(async () => {
    homed = await startHomed({ env: { HOMEAGENT_SUPERVISOR_POLICY: JSON.stringify(FAST_POLICY) } });
    work = makeTempDir('hostile-ctl-');
  });
  after(async () => {
    await homed?.cleanup();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  test('the intruder installs with homectl; every door it tries at start is refused, logged and counted', async () => {
    const cliPid = await pidOf('cli');
    const installed = await ctl('plugins', 'install', await packHostile('intruder', work), '--yes');
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(installed.stdout, /name\s+intruder/);
    assert.match(installed.stdout, /permissions\s+tools/);
    assert.match(installed.stdout, /plugin "intruder" 1\.0\.0 installed: now ready/);

    const intruder = await waitFor(
      async () => {
        const plugin = await json<PluginInfo>('plugins', 'info', 'intruder');
        return plugin.denied_calls === INTRUDER_DENIALS ? plugin : undefined;
      },
      { what: `intruder's ${INTRUDER_DENIALS} denials to be counted`, timeoutMs: 15_000 },
    );
    assert.deepEqual([intruder.state, intruder.kind, intruder.restarts], ['ready', 'js', 0]);
    assert.equal(findWall(intruder.sandbox, 'node-permission-model').active, true);
    // As root the uid wall is up unless a folder the host needs is out of another uid's reach, which info then says.
    const uid = findWall(intruder.sandbox, 'own-uid');
    if (CAN_SET_UID) assert.ok(uid.active || /not reachable by another uid/.test(uid.note), uid.note);
    else assert.equal(uid.active, false, 'without root no uid wall is claimed');
    assert.equal(findWall(intruder.sandbox, 'no-network').active, CAN_UNSHARE);

    const logs = (await json<LogLine[]>('plugins', 'logs', 'intruder')).map((line) => line.msg).join('\n');
    for (const what of REFUSED_FILES) assert.match(logs, new RegExp(`attempt ${escape(what)}: refused ERR_ACCESS_DENIED`), what);
    for (const what of REFUSED_CALLS) assert.match(logs, new RegExp(`attempt ${escape(what)}: refused -33003`), what);
    assert.match(logs, /denied plugins\/control: needs permission "admin"/);
    assert.match(logs, /interrupt not delivered: .*needs the permission "interrupt"/);
    assert.doesNotMatch(logs, /: allowed/);

    // The table a person reads shows the same counts and walls.
    const table = await ctl('plugins', 'info', 'intruder');
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, new RegExp(`denied calls\\s+${INTRUDER_DENIALS}`));
    assert.match(table.stdout, /node-permission-model\s+yes/);

    // Nothing it asked for happened; homed and the cli plugin it tried to stop still answer.
    assert.equal(fs.existsSync(path.join(homed.dataDir, 'intruder-was-here')), false);
    assert.notEqual((await json<ConfigEntry>('config', 'get', 'core.plugin.max_rss_mb')).value, 100000);
    assert.equal(await pidOf('cli'), cliPid, 'the cli plugin was not stopped or restarted');
    assert.equal((await ctl('status')).code, 0);
  });

  test('the wrecker garbles its wire after each start: killed as a protocol violation, counted, then stopped by the breaker', async () => {
    const intruderPid = await pidOf('intruder');
    const installed = await ctl('plugins', 'install', await packHostile('wrecker', work), '--yes');
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(installed.stdout, /permissions\s+none/);
    const wrecker = await waitFor(
      async () => {
        const plugin = await json<PluginInfo>('plugins', 'info', 'wrecker');
        return plugin.state === 'failed' ? plugin : undefined;
      },
      { what: 'the crash-loop breaker to stop the wrecker', timeoutMs: 20_000 },
    );
    assert.equal(wrecker.restarts, LOOP_EXITS - 1);
    assert.equal(wrecker.last_exit?.reason, 'protocol-violation');
    assert.equal(wrecker.pid, null);
    assert.match(wrecker.detail ?? '', /homectl plugins restart wrecker/);
    const table = await ctl('plugins', 'info', 'wrecker');
    assert.match(table.stdout, new RegExp(`restarts\\s+${LOOP_EXITS - 1}`));
    assert.match(table.stdout, /last exit\s+protocol-violation \(SIGKILL\)/);
    const logs = (await json<LogLine[]>('plugins', 'logs', 'wrecker')).map((line) => line.msg).join('\n');
    assert.match(logs, /sent a bad frame: frame body is not JSON/);
    // The neighbours were not touched.
    assert.equal(await pidOf('intruder'), intruderPid);
    const plugins = await json<PluginStatus[]>('plugins', 'list');
    for (const plugin of plugins.filter((p) => p.name !== 'wrecker' && p.enabled)) assert.deepEqual([plugin.name, plugin.state], [plugin.name, 'ready']);
    assert.equal((await ctl('status')).code, 0);
  });
});

/** A literal string as a RegExp source. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
