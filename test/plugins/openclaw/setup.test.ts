// skills/setup runs exactly the option asked for: a stub npm on homed's PATH records the argv it got (and puts the
// program there, so the skill turns ready); a download from a local server is checked by sha256, unpacked into the
// plugin's tools folder, whose bin folder skills are gated against; a wrong sha256 or a missing installer is refused;
// a client that is not the owner's (the shared socket) is refused before anything runs.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { findExecutable } from '../../../protocol/runtime/executables';
import { callOnce } from '../../../plugins/cli/client';
import { SkillsApi } from '../../../protocol/skills';
import { writeUnder } from '../../harness/scratch';
import { skillText, startSkillsRig } from './rig';

/** Serves one file at /tool.tar.gz on 127.0.0.1; answers its URL. */
async function serveFile(t: TestContext, body: Buffer): Promise<string> {
  const server = http.createServer((req, res) => {
    if (req.url !== '/tool.tar.gz') res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'application/gzip' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/tool.tar.gz`;
}

describe('skills/setup', () => {
  it('runs npm install -g with exactly the package of the option, and the skill is ready after', async (t) => {
    const rig = await startSkillsRig(t);
    const bin = `ha-npm-tool-${process.pid}`;
    const argvFile = path.join(rig.scratch, 'npm-argv');
    rig.putOnPath(
      'npm',
      `#!/bin/sh\nprintf '%s\\n' "$@" > '${argvFile}'\necho "added 1 package"\nprintf '#!/bin/sh\\n' > '${path.join(rig.binDir, bin)}'\nchmod 755 '${path.join(rig.binDir, bin)}'\n`,
    );
    const openclaw = { requires: { bins: [bin] }, install: [{ id: 'node', kind: 'node', package: `${bin}@1.2.0`, bins: [bin] }] };
    rig.writeSkill('npm-skill', skillText('npm-skill', { openclaw }));
    await rig.waitStatus('npm-skill', 'missing');
    // It runs an installer as homed's user, outside every sandbox: only the owner's homectl may ask, never the shared socket.
    await assert.rejects(
      callOnce(rig.homed.socket, SkillsApi.Setup, { name: 'npm-skill', id: 'node' }),
      /skills\/setup widens what the agent may do, so only the owner runs it, on the machine running homed: homectl/,
    );
    assert.equal(fs.existsSync(argvFile), false, 'npm did not run');
    const result = await rig.call(SkillsApi.Setup, { name: 'npm-skill', id: 'node' });
    assert.deepEqual(result, { command: `npm install -g ${bin}@1.2.0`, exitCode: 0, output: 'added 1 package\n', status: 'ready' });
    assert.deepEqual(fs.readFileSync(argvFile, 'utf8').split('\n'), ['install', '-g', `${bin}@1.2.0`, '']);
    await assert.rejects(rig.call(SkillsApi.Setup, { name: 'npm-skill', id: 'brew' }), /has no install option "brew"; its options: node/);
  });

  it('downloads, checks and unpacks an archive into the tools folder, whose programs count for gating', async (t) => {
    const rig = await startSkillsRig(t);
    const bin = `ha-dl-tool-${process.pid}`;
    const packed = path.join(rig.scratch, 'pack');
    writeUnder(packed, `tool-1.0/bin/${bin}`, '#!/bin/sh\necho downloaded\n');
    fs.chmodSync(path.join(packed, `tool-1.0/bin/${bin}`), 0o755);
    const archive = path.join(rig.scratch, 'tool.tar.gz');
    execFileSync('tar', ['-czf', archive, '-C', packed, 'tool-1.0']);
    const body = fs.readFileSync(archive);
    const url = await serveFile(t, body);
    const sha256 = createHash('sha256').update(body).digest('hex');
    const download = { id: 'dl', kind: 'download', url, sha256, extract: true, stripComponents: 1, bins: [bin] };
    const wrong = { ...download, id: 'wrong', sha256: '0'.repeat(64) };
    rig.writeSkill('dl-skill', skillText('dl-skill', { openclaw: { requires: { bins: [bin] }, install: [download, wrong] } }));
    await rig.waitStatus('dl-skill', 'missing');

    await assert.rejects(
      rig.call(SkillsApi.Setup, { name: 'dl-skill', id: 'wrong' }),
      new RegExp(`has sha256 ${sha256}, not the 0{64} the skill gives; nothing was installed`),
    );
    const toolsDir = path.join(rig.homed.dataDir, 'plugin-data', 'openclaw', 'tools', 'dl-skill');
    assert.equal(fs.existsSync(toolsDir), false, 'a refused download places nothing');
    const info = await rig.call(SkillsApi.Info, { name: 'dl-skill' });
    assert.equal(info.install[0]?.label, `download ${url} (sha256 ${sha256}) into ${toolsDir}, unpacked (strip 1)`);
    const result = await rig.call(SkillsApi.Setup, { name: 'dl-skill', id: 'dl' });
    assert.deepEqual(result, { command: info.install[0]?.label, exitCode: 0, output: `placed in ${toolsDir}: bin`, status: 'ready' });
    assert.equal(fs.readFileSync(path.join(toolsDir, 'bin', bin), 'utf8'), '#!/bin/sh\necho downloaded\n');
  });

  it('refuses an option whose installer is not on PATH, saying what to install', async (t) => {
    const rig = await startSkillsRig(t);
    if (findExecutable('brew', `${rig.binDir}:${process.env['PATH'] ?? ''}`)) return t.skip('brew is installed here; setup would really run it');
    rig.writeSkill(
      'brew-skill',
      skillText('brew-skill', { openclaw: { requires: { bins: ['ha-brew-only'] }, install: [{ id: 'brew', kind: 'brew', formula: 'ha-brew-only' }] } }),
    );
    await rig.waitStatus('brew-skill', 'missing');
    await assert.rejects(
      rig.call(SkillsApi.Setup, { name: 'brew-skill', id: 'brew' }),
      /brew is not installed here \(not found in .*\); install Homebrew first, or pick another option/,
    );
  });
});
