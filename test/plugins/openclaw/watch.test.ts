// The skill set follows its folders and settings in a real homed: a SKILL.md added, changed or removed (six levels
// deep too) is seen within about a second, a program put on homed's PATH makes a skill ready, skills of the same
// name in core.skills.path, a package and an extra folder shadow each other in that order, and the owner's switch
// and the allow-list are followed — all read back through the skills/* client methods over the real socket.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { HomedClient, callOnce } from '../../../plugins/cli/client';
import { SkillsApi, SocketApi, type EventsStreamItem } from '../../../protocol';
import { writeUnder } from '../../harness/scratch';
import { waitFor } from '../../harness/wait';
import { skillText, startSkillsRig } from './rig';

/** The watch must beat the periodic rescan (30 s) by far; a second is the aim, two leave room for a loaded machine. */
const SEEN_WITHIN_MS = 2_000;

describe('the openclaw skill set in a real homed', () => {
  it('sees a SKILL.md added, changed, added six levels deep and removed, and publishes openclaw.skills.changed', async (t) => {
    const rig = await startSkillsRig(t);
    const client = await HomedClient.connect(rig.homed.socket);
    t.after(() => client.close());
    const items: EventsStreamItem[] = [];
    void client
      .call(SocketApi.EventsSubscribe, { names: ['openclaw.skills.changed'] }, { onStream: (item) => items.push(item as EventsStreamItem), timeoutMs: 0 })
      .catch(() => undefined);
    await waitFor(() => items.some((item) => item.kind === 'subscribed'), { what: 'the event subscription' });
    const changedTo = (ready: number, total: number, from = 0): boolean =>
      items.slice(from).some((item) => item.kind === 'event' && JSON.stringify(item.data) === JSON.stringify({ ready, total }));

    let started = Date.now();
    rig.writeSkill('hello', skillText('hello', { description: 'says hello' }));
    await rig.waitStatus('hello', 'ready', SEEN_WITHIN_MS);
    const addedMs = Date.now() - started;
    await waitFor(() => changedTo(1, 1), { what: 'skills.changed {ready: 1, total: 1}' });

    started = Date.now();
    rig.writeSkill('hello', skillText('hello', { description: 'says hello twice' }));
    await waitFor(async () => (await rig.list()).skills.find((skill) => skill.description === 'says hello twice'), {
      what: 'the new description',
      timeoutMs: SEEN_WITHIN_MS,
      intervalMs: 25,
    });
    const changedMs = Date.now() - started;

    rig.writeSkill('a/b/c/d/e/deep', skillText('deep'));
    rig.writeSkill('a/b/c/d/e/f/too-deep', skillText('too-deep'));
    await rig.waitStatus('deep', 'ready', SEEN_WITHIN_MS);
    assert.equal(
      (await rig.list()).skills.some((skill) => skill.name === 'too-deep'),
      false,
      'the seventh level is not looked at',
    );

    const eventsBefore = items.length;
    started = Date.now();
    fs.rmSync(path.join(rig.skillsDir, 'hello'), { recursive: true });
    await waitFor(async () => !(await rig.list()).skills.some((skill) => skill.name === 'hello'), {
      what: 'hello to go',
      timeoutMs: SEEN_WITHIN_MS,
      intervalMs: 25,
    });
    const removedMs = Date.now() - started;
    await waitFor(() => changedTo(1, 1, eventsBefore), { what: 'skills.changed {ready: 1, total: 1} after the removal' });
    t.diagnostic(`seen after: added ${addedMs} ms, changed ${changedMs} ms, removed ${removedMs} ms`);
  });

  it('makes a skill ready once the program it needs is put on a folder of homed PATH, with no restart', async (t) => {
    const rig = await startSkillsRig(t);
    const bin = `ha-stub-${process.pid}`;
    const openclaw = { requires: { bins: [bin] }, install: [{ id: 'npm', kind: 'node', package: 'stub-tool', bins: [bin] }] };
    rig.writeSkill('needs-bin', skillText('needs-bin', { openclaw }));
    const missing = await rig.waitStatus('needs-bin', 'missing');
    assert.deepEqual(missing.missing, { bins: [bin] });
    const info = await rig.call(SkillsApi.Info, { name: 'needs-bin' });
    assert.deepEqual(info.checks, [{ kind: 'bins', name: bin, ok: false }]);
    assert.deepEqual(
      info.install.map((option) => [option.id, option.label, option.applies]),
      [['npm', 'npm install -g stub-tool', true]],
    );
    rig.putOnPath(bin);
    await rig.waitStatus('needs-bin', 'ready', SEEN_WITHIN_MS);
  });

  it('picks up an extra folder when it appears, and shadows by precedence: core.skills.path, a package, an extra folder', async (t) => {
    const rig = await startSkillsRig(t);
    // The extra folder does not exist yet when it is set: it is picked up when it appears.
    const extra = path.join(rig.scratch, 'extra');
    await callOnce(rig.adminSocket, SocketApi.ConfigSet, { scope: 'openclaw', key: 'extra_dirs', value: [extra] });
    writeUnder(extra, 'same/SKILL.md', skillText('same', { description: 'from the extra folder' }));
    writeUnder(extra, 'group/only-extra/SKILL.md', skillText('only-extra'));
    await rig.waitStatus('only-extra', 'ready', SEEN_WITHIN_MS);
    const packageDir = path.join(rig.homed.dataDir, 'plugins', 'samepkg');
    writeUnder(packageDir, 'SKILL.md', skillText('same', { description: 'from the package' }));
    writeUnder(packageDir, 'plugin.json', JSON.stringify({ name: 'samepkg', version: '1.0.0', entry: 'SKILL.md' }));
    const dataFile = rig.writeSkill('same', skillText('same', { description: 'from core.skills.path' }));

    const sourceOfSame = async (): Promise<string | undefined> => (await rig.list()).skills.find((skill) => skill.name === 'same')?.source;
    await waitFor(async () => (await rig.list()).shadowed.length === 2, { what: 'two shadowed skills', timeoutMs: 5_000 });
    const listed = await rig.list();
    assert.equal(listed.skills.find((skill) => skill.name === 'same')?.description, 'from core.skills.path');
    assert.deepEqual(
      listed.shadowed.map((skill) => [skill.source, skill.shadowedBy]),
      [
        ['package:samepkg', dataFile],
        [`extra:${extra}`, dataFile],
      ],
    );
    assert.equal(listed.total, 2, 'shadowed skills are not counted');
    const info = await rig.call(SkillsApi.Info, { name: 'same' });
    assert.deepEqual(info.shadows, [path.join(packageDir, 'SKILL.md'), path.join(extra, 'same', 'SKILL.md')]);

    fs.rmSync(path.dirname(dataFile), { recursive: true });
    await waitFor(async () => (await sourceOfSame()) === 'package:samepkg', { what: 'the package to win', timeoutMs: 5_000 });
    fs.rmSync(packageDir, { recursive: true });
    await waitFor(async () => (await sourceOfSame()) === `extra:${extra}`, { what: 'the extra folder to win', timeoutMs: 5_000 });
    assert.deepEqual((await rig.list()).shadowed, []);
  });

  it("follows the owner's switch (skills/enable, skills/disable) and the allow-list", async (t) => {
    const rig = await startSkillsRig(t);
    rig.writeSkill('Weather Report', skillText('Weather Report'));
    rig.writeSkill('other', skillText('other'));
    await rig.waitStatus('Weather Report', 'ready');
    const disabled = await rig.call(SkillsApi.Disable, { name: 'Weather Report' });
    assert.deepEqual(disabled, { name: 'Weather Report', key: 'weather-report', status: 'disabled' });
    const info = await rig.call(SkillsApi.Info, { name: 'Weather Report' });
    assert.equal(info.settings.enabled, false);
    const enabled = await rig.call(SkillsApi.Enable, { name: 'Weather Report' });
    assert.equal(enabled.status, 'ready');

    await callOnce(rig.adminSocket, SocketApi.ConfigSet, { scope: 'openclaw', key: 'allow', value: ['other'] });
    await rig.waitStatus('Weather Report', 'blocked');
    assert.equal((await rig.list()).skills.find((skill) => skill.name === 'other')?.status, 'ready');
    await callOnce(rig.adminSocket, SocketApi.ConfigSet, { scope: 'openclaw', key: 'allow', value: ['weather-report'] });
    await rig.waitStatus('Weather Report', 'ready');
    await rig.waitStatus('other', 'blocked');
    await assert.rejects(rig.call(SkillsApi.Enable, { name: 'nope' }), /no skill named "nope"; homectl skills list shows them/);
  });
});
