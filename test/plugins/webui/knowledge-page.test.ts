// The Knowledge page in chromium against a real homed: a Markdown file uploaded from the page is added by the
// upload route (knowledge/add by path, the copy then deleted), listed as indexed, found by search with its
// file § heading; Remove asks first, then removes it; reindex answers; the upload route refuses a file too big or
// a browser not signed in, with a clear message; 375 px.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { callOnce } from '../../../plugins/cli/client';
import { MAX_UPLOAD_BYTES } from '../../../plugins/webui/upload';
import { SocketApi, type KnowledgeFile } from '../../../protocol';
import { PHONE, skip, startBrowserHarness, type BrowserHarness } from './browser-harness';
import { postAnnounced } from './post-announced';

const NAME = 'garden-notes.md';
const MARKDOWN = '# Garden\n\n## Watering\n\nThe tomato beds need water every second evening in July.\n';

describe('the Knowledge page in chromium', { skip }, () => {
  let harness: BrowserHarness;
  const list = async (): Promise<KnowledgeFile[]> => (await callOnce(harness.live.homed.socket, SocketApi.KnowledgeList, {})).files;
  const uploads = (): string => path.join(harness.live.homed.dataDir, 'plugin-data', 'webui', 'uploads');

  before(async () => {
    harness = await startBrowserHarness();
  });
  after(async () => {
    await harness?.close();
  });

  async function openKnowledge(viewport?: { width: number; height: number }) {
    const guarded = await harness.signedInPage(viewport);
    await guarded.page.getByRole('button', { name: 'Knowledge', exact: true }).click();
    await guarded.page.getByRole('heading', { name: 'Add a file' }).waitFor();
    return guarded;
  }

  it('uploads a Markdown file, lists it as indexed, finds it by search with its file § heading, and removes it after a confirmation', async () => {
    const { context, page, foreign, errors } = await openKnowledge();
    await page.getByLabel('File to add').setInputFiles({ name: NAME, mimeType: 'text/markdown', buffer: Buffer.from(MARKDOWN) });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page
      .getByRole('status')
      .getByText(new RegExp(`^Added ${NAME} \\(\\d+ chunks\\)\\.$`))
      .waitFor();
    const listed = (await list()).find((f) => f.file === NAME);
    assert.ok(listed && listed.chunks > 0 && listed.error === undefined, `homed lists the file as indexed (${JSON.stringify(listed)})`);
    assert.deepEqual(fs.readdirSync(uploads()), [], 'the uploaded copy is deleted');
    const item = page.getByRole('list', { name: 'Files' }).getByRole('listitem', { name: NAME });
    await item.getByText('indexed', { exact: true }).waitFor();

    await page.getByRole('searchbox', { name: 'Search documents' }).fill('tomato water');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const hit = page.getByRole('list', { name: 'Passages found' }).getByRole('listitem').first();
    await hit.getByText(/tomato beds need water/).waitFor();
    assert.match((await hit.textContent()) ?? '', new RegExp(`${NAME.replace('.', '\\.')} § Garden.*Watering`));
    await harness.screenshot(page, 'knowledge-desktop');

    await item.getByRole('button', { name: `Remove ${NAME}` }).click();
    const confirm = page.getByRole('group', { name: `Remove ${NAME} from the knowledge folder and the index?` });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    assert.ok(
      (await list()).some((f) => f.file === NAME),
      'Cancel removes nothing',
    );
    await item.getByRole('button', { name: `Remove ${NAME}` }).click();
    await confirm.getByRole('button', { name: 'Yes, remove it' }).click();
    await page.getByText('The knowledge folder is empty.').waitFor();
    assert.equal(
      (await list()).some((f) => f.file === NAME),
      false,
    );

    await page.getByRole('button', { name: 'Reindex' }).click();
    await page
      .getByRole('status')
      .getByText(/^Reindexed 0 files/)
      .waitFor();
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('works at 375 px: upload and the file listed, nothing wider than the phone', async () => {
    const { context, page, foreign, errors } = await openKnowledge(PHONE);
    await page
      .getByLabel('File to add')
      .setInputFiles({ name: 'phone.md', mimeType: 'text/markdown', buffer: Buffer.from('# Phone\n\nAdded from a phone.\n') });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('list', { name: 'Files' }).getByRole('listitem', { name: 'phone.md' }).waitFor();
    const scrolls = (await page.evaluate('document.documentElement.scrollWidth')) as number;
    assert.ok(scrolls <= PHONE.width, `nothing is wider than the phone (${scrolls} px)`);
    await harness.screenshot(page, 'knowledge-phone');
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('refuses an upload too big, one from a browser not signed in, and one from another origin, saying why', async () => {
    const url = `${harness.live.origin}/api/knowledge/upload?name=big.md`;
    const headers = { 'content-type': 'application/octet-stream', origin: harness.live.origin };
    const anonymous = await fetch(url, { method: 'POST', headers, body: 'x' });
    assert.equal(anonymous.status, 401);
    const { context, page } = await openKnowledge();
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const big = await postAnnounced(url, { ...headers, cookie }, MAX_UPLOAD_BYTES + 1);
    assert.equal(big.status, 413);
    assert.match((JSON.parse(big.body) as { error: string }).error, /larger than 8 MiB.*homectl knowledge add/);
    const foreignOrigin = await fetch(url, { method: 'POST', headers: { ...headers, cookie, origin: 'http://evil.example' }, body: 'x' });
    assert.equal(foreignOrigin.status, 403);
    const bad = await fetch(`${harness.live.origin}/api/knowledge/upload?name=..%2Fescape.md`, { method: 'POST', headers: { ...headers, cookie }, body: 'x' });
    assert.equal(bad.status, 422);
    assert.ok(((await bad.json()) as { error: string }).error.length > 0);
    assert.equal(
      (await list()).some((f) => f.file.includes('big') || f.file.includes('escape')),
      false,
    );
    assert.deepEqual(fs.readdirSync(uploads()), []);
    await page.close();
    await context.close();
  });
});
