// The page (and every client) cannot make homed read any file through the knowledge base: a source of
// knowledge/add must lie inside the allowed roots (files:roots) or the knowledge folder. Before, over the
// WebSocket, knowledge/add {"path":"/etc/shadow"} and then knowledge/search root returned root's shadow lines.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { callOnce } from '../../plugins/cli/client';
import { SocketApi, type KnowledgeHit } from '../../protocol';
import { makeTempDir, runHomectl } from '../harness/homed';
import { openPageSocket, signInLive, startLiveWebui, type LiveWebui, type PageSocket } from '../plugins/webui/live';

/** A file outside every root and the knowledge folder, with words to search for. */
const SECRET_WORDS = 'zanzibar quokka tollbooth';

describe('knowledge/add takes sources only from the allowed roots and the knowledge folder', () => {
  let live: LiveWebui;
  let page: PageSocket;
  let outside: string;
  let secret: string;
  before(async () => {
    live = await startLiveWebui();
    page = await openPageSocket(live, await signInLive(live));
    outside = makeTempDir('ks-outside-');
    secret = path.join(outside, 'secret.md');
    fs.writeFileSync(secret, `# Secret\n\nThe vault code is ${SECRET_WORDS}.\n`);
  });
  after(async () => {
    page?.close();
    await live?.homed.cleanup();
    if (outside) fs.rmSync(outside, { recursive: true, force: true });
  });

  const search = async (query: string): Promise<KnowledgeHit[]> => (await callOnce(live.homed.socket, SocketApi.KnowledgeSearch, { query, limit: 20 })).hits;

  it('refuses /etc/shadow and a file outside the roots over the WebSocket, naming files:roots', async () => {
    for (const params of [{ path: '/etc/shadow' }, { path: '/etc/shadow', name: 'shadow.txt' }, { path: secret }]) {
      const answer = await page.call(SocketApi.KnowledgeAdd, params);
      assert.ok(answer.error, `knowledge/add ${JSON.stringify(params)} over the WebSocket was refused, not ${JSON.stringify(answer.result)}`);
      assert.match(answer.error.message, /outside the folders.*files:roots/, answer.error.message);
    }
    assert.deepEqual(await search('root'), [], 'nothing of /etc/shadow was indexed');
    assert.deepEqual(await search(SECRET_WORDS), []);
  });

  it('refuses them over the socket and through homectl too', async () => {
    await assert.rejects(callOnce(live.homed.socket, SocketApi.KnowledgeAdd, { path: '/etc/shadow', name: 'shadow.txt' }), /outside the folders.*files:roots/);
    const ctl = await runHomectl(['knowledge', 'add', secret], { socket: live.homed.socket });
    assert.notEqual(ctl.code, 0);
    assert.match(ctl.stderr, /outside the folders.*files:roots/);
    assert.deepEqual(await search('root'), []);
    assert.deepEqual(await search(SECRET_WORDS), []);
  });

  it('refuses a symlink inside a root that leads outside it', async () => {
    const workspace = path.join(live.homed.dataDir, 'workspace');
    fs.mkdirSync(workspace, { recursive: true });
    fs.symlinkSync(secret, path.join(workspace, 'link.md'));
    const answer = await page.call(SocketApi.KnowledgeAdd, { path: path.join(workspace, 'link.md') });
    assert.match(answer.error?.message ?? 'accepted', /outside the folders/);
    assert.deepEqual(await search(SECRET_WORDS), []);
  });

  it('takes a file inside the roots, and one inside a folder the owner added to files:roots', async () => {
    const workspace = path.join(live.homed.dataDir, 'workspace');
    fs.writeFileSync(path.join(workspace, 'boiler.md'), '# Boiler\n\nThe pressure belongs between 1.2 and 1.8 bar.\n');
    const inRoot = await page.call(SocketApi.KnowledgeAdd, { path: path.join(workspace, 'boiler.md') });
    assert.equal(inRoot.error, undefined, inRoot.error?.message);
    assert.equal((await search('boiler pressure'))[0]?.file, 'boiler.md');
    const set = await runHomectl(['config', 'set', 'files:roots', JSON.stringify([workspace, outside])], { socket: live.homed.socket });
    assert.equal(set.code, 0, set.stderr);
    const ctl = await runHomectl(['knowledge', 'add', secret], { socket: live.homed.socket });
    assert.equal(ctl.code, 0, ctl.stderr);
    assert.equal((await search(SECRET_WORDS))[0]?.file, 'secret.md');
  });
});
