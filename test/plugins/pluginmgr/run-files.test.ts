// pluginmgr's <run>/pluginmgr.token and pluginmgr.port against a real homed: removed when it stops, unless
// another process has written them since (a second homed on the same data dir must keep its files).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { callOnce } from '../../../plugins/cli/client';
import { writeCredentials } from '../../../plugins/pluginmgr/http/credentials';
import { PluginmgrFiles } from '../../../protocol/pluginmgr';
import { startHomed, waitFor } from '../../harness/homed';
import { SocketApi, type PluginAction } from '../../../protocol';

describe('pluginmgr run files', () => {
  it('removes its own token and port files when it stops, and leaves files another process wrote', async (t) => {
    const homed = await startHomed();
    t.after(() => homed.cleanup());
    const run = path.join(homed.dataDir, 'run');
    const token = path.join(run, PluginmgrFiles.token);
    const port = path.join(run, PluginmgrFiles.port);
    const control = (action: PluginAction) => callOnce(homed.socket, SocketApi.PluginsControl, { name: 'pluginmgr', action });
    assert.ok(fs.existsSync(token) && fs.existsSync(port));

    await control('stop');
    assert.ok(!fs.existsSync(token), 'its own token file is removed');
    assert.ok(!fs.existsSync(port), 'its own port file is removed');

    await control('start');
    await waitFor(() => fs.existsSync(port), { what: 'the files written again' });
    // Another process writes its own files in their place, as a second homed on this data dir would.
    writeCredentials({ token, port }, 'f'.repeat(64), 65000);
    assert.equal(await homed.stop(), 0);
    assert.equal(fs.readFileSync(token, 'utf8'), `${'f'.repeat(64)}\n`);
    assert.equal(fs.readFileSync(port, 'utf8'), '65000\n');
    assert.match(homed.output(), /left the token and port files in place: another process has written them since/);
  });
});
