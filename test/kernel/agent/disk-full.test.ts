// A full disk under a real homed (a small tmpfs, as root): a message fails before the model is called,
// with the path and the free space; once space is back the session goes on, and nothing sent was lost
// without its sender being told.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { SessionsShowResult } from '../../../protocol';
import { startFakeLlmFor } from '../../fake-llm/server';
import { fakeProviderEnv, makeTempDir, runHomectl, startHomed, type HomedHandle } from '../../harness/homed';
import { runWaiter } from '../../harness/waiter';
import { emptyDisk, fillDisk } from './fill-disk';

const IS_ROOT = process.getuid?.() === 0;

describe('a full disk', () => {
  it('fails a message before the model is called, naming the path and the free space; once space is back nothing is lost', async (t) => {
    if (!IS_ROOT) return t.skip('needs root to mount a small tmpfs');
    const mount = makeTempDir('full-');
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m,mode=0700', 'tmpfs', mount]);
    } catch (error) {
      fs.rmSync(mount, { recursive: true, force: true });
      return t.skip(`cannot mount a tmpfs here: ${(error as Error).message}`);
    }
    let homed: HomedHandle | undefined;
    t.after(async () => {
      await homed?.cleanup();
      execFileSync('umount', ['-l', mount]);
      fs.rmSync(mount, { recursive: true, force: true });
    });
    const llm = await startFakeLlmFor(t);
    const dataDir = path.join(mount, 'data');
    homed = await startHomed({
      dataDir,
      env: fakeProviderEnv(llm),
    });
    llm.setDefault({ text: 'Answered.' });
    const say = (text: string) => runWaiter(['-data', dataDir, '--session', 'cli:disk', '-say', text]);
    assert.equal((await say('before')).code, 0);

    const filler = path.join(mount, 'filler');
    fillDisk(filler);
    const requests = llm.requests.length;
    const full = await say('while the disk is full');
    assert.notEqual(full.code, 0);
    assert.match(
      full.stderr,
      new RegExp(`the disk holding ${dataDir.replace(/[/.]/g, '\\$&')}/agent\\.db is full \\(\\d+ (B|KiB) free\\); free some space there, then send it again`),
    );
    assert.match(full.stderr, /HA_ERR_DISK_FULL/);
    assert.equal(llm.requests.length, requests, 'the model was not called');
    t.diagnostic(`while full: ${full.stderr.trim()}`);

    emptyDisk(filler);
    const after = await say('after space is back');
    assert.equal(after.code, 0, after.stderr);
    assert.equal(after.stdout, 'Answered.\n');
    const shown = await runHomectl(['sessions', 'show', 'cli:disk', '--json'], { dataDir });
    const { entries } = JSON.parse(shown.stdout) as SessionsShowResult;
    const texts = entries.filter((e) => e.role === 'user').map((e) => [e.text, e.flag ?? 'answered']);
    // The message sent while the disk was full is either kept as unanswered, or its sender was told it was not stored.
    const kept = texts.some(([text]) => text === 'while the disk is full');
    if (!kept) assert.match(full.stderr, /was not stored/);
    assert.deepEqual(
      texts.filter(([text]) => text !== 'while the disk is full'),
      [
        ['before', 'answered'],
        ['after space is back', 'answered'],
      ],
    );
  });
});
