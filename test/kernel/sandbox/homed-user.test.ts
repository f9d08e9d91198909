// Whether a third-party plugin runs as the homed user or under a uid of its own is said everywhere a
// person looks: the install confirmation, plugins list, plugins info and homed's log at start. Real homed,
// real homectl, a real .hmap; the wall is made to fail by keeping the data dir in a private (0700) folder.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import type { PluginStatus } from '../../../protocol';
import { findTool, pluginUid } from '../../../kernel/supervisor/sandbox';
import { packPlugin } from '../../../scripts/pack/pack';
import { FIXTURE_PLUGINS, makeTempDir, runHomectl, startHomed, type HomedHandle } from '../../harness/homed';
import { nodeUnrunnableByOthers } from '../../harness/other-uid';

const wallPossible = process.getuid?.() === 0 && findTool('setpriv') !== null;

/** The `good` fixture packed as a .hmap in a temp folder. */
async function packedGood(t: TestContext): Promise<string> {
  const work = makeTempDir('hmap-');
  t.after(() => fs.rmSync(work, { recursive: true, force: true }));
  fs.cpSync(path.join(FIXTURE_PLUGINS, 'good'), path.join(work, 'src', 'good'), { recursive: true });
  return (await packPlugin(path.join(work, 'src', 'good'), work)).file;
}

/** The real uid of a process, from /proc. */
function uidOf(pid: number): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Uid:'));
  return Number(line?.split(/\s+/)[1]);
}

async function startOn(t: TestContext, dataDir?: string): Promise<HomedHandle> {
  const homed = await startHomed(dataDir === undefined ? {} : { dataDir });
  t.after(() => homed.cleanup());
  return homed;
}

describe('a third-party plugin without a uid of its own', () => {
  it('is said to run as the homed user at install, in plugins list and info, and in the log at start', async (t) => {
    const hidden = makeTempDir('homed-private-');
    t.after(() => fs.rmSync(hidden, { recursive: true, force: true }));
    fs.chmodSync(hidden, 0o700);
    const dataDir = path.join(hidden, 'data');
    const homed = await startOn(t, dataDir);
    const ctl = (...args: string[]) => runHomectl(args, { dataDir });

    const installed = await ctl('plugins', 'install', '--yes', await packedGood(t));
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(installed.stdout, /^runs as\s+the homed user, not a uid of its own$/m);
    assert.match(installed.stdout, /^warning: .*the plugin runs as the homed user/m);
    if (wallPossible) assert.match(installed.stdout, new RegExp(`^warning: ${hidden} is not searchable by other users`, 'm'));

    const listed = await ctl('plugins', 'list');
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^warning: plugin "good" has no uid of its own: .*the plugin runs as the homed user/m);
    assert.equal(listed.stdout.match(/^warning:/gm)?.length, 1, 'built-ins get no warning');
    const statuses = JSON.parse((await ctl('plugins', 'list', '--json')).stdout) as PluginStatus[];
    assert.match(statuses.find((p) => p.name === 'good')?.runs_as_homed_user ?? '', /runs as the homed user/);
    assert.equal(statuses.find((p) => p.name === 'cli')?.runs_as_homed_user, undefined);

    const info = await ctl('plugins', 'info', 'good');
    assert.match(info.stdout, /^runs as\s+the homed user: it has no uid of its own \(see own-uid below\)$/m);
    assert.match(info.stdout, /^own-uid\s+no\s+/m);
    const good = statuses.find((p) => p.name === 'good');
    assert.equal(good?.state, 'ready');
    assert.equal(uidOf(good?.pid as number), process.getuid?.(), 'and it does run as the homed user');

    assert.equal(await homed.stop(), 0);
    const again = await startOn(t, dataDir);
    const said = again.logs().filter((line) => line['msg'] === 'third-party plugin "good" runs as the homed user');
    assert.equal(said.length, 1, again.output());
    assert.match(String(said[0]?.['why']), /the plugin runs as the homed user/);
    assert.equal(again.logs().filter((line) => String(line['msg']).startsWith('third-party plugin')).length, 1);
  });

  it('where the wall holds, the install says a uid of its own, nothing warns, and the plugin runs under that uid', async (t) => {
    if (!wallPossible) return t.skip('not root, or no setpriv: no plugin gets a uid of its own here');
    const unrunnable = nodeUnrunnableByOthers();
    if (unrunnable) return t.skip(unrunnable);
    const homed = await startOn(t);
    const ctl = (...args: string[]) => runHomectl(args, { dataDir: homed.dataDir });
    const installed = await ctl('plugins', 'install', '--yes', await packedGood(t));
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(installed.stdout, /^runs as\s+a uid of its own$/m);
    assert.doesNotMatch(installed.stdout, /warning/);
    assert.doesNotMatch((await ctl('plugins', 'list')).stdout, /warning/);
    assert.match((await ctl('plugins', 'info', 'good')).stdout, /^runs as\s+a uid of its own \(see own-uid below\)$/m);
    const statuses = JSON.parse((await ctl('plugins', 'list', '--json')).stdout) as PluginStatus[];
    const good = statuses.find((p) => p.name === 'good');
    assert.equal(good?.runs_as_homed_user, undefined);
    assert.equal(uidOf(good?.pid as number), pluginUid('good'));
    assert.equal(homed.logs().filter((line) => String(line['msg']).startsWith('third-party plugin')).length, 0);
  });
});
