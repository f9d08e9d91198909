// The Memory page in chromium against a real homed whose graph was seeded (before homed opened it) with a fact
// and the one that superseded it, and a note: search shows each hit's text, when it was learned and where from;
// an entity shows its current fact and the superseded one marked; Forget asks first, then forgets; 375 px.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { MemoryStore } from '../../../kernel/memory';
import { callOnce } from '../../../plugins/cli/client';
import { SocketApi, type MemoryHit } from '../../../protocol';
import { makeTempDir } from '../../harness/homed';
import { PHONE, skip, startBrowserHarness, type BrowserHarness } from './browser-harness';

/** Writes the graph homed will open: Lin lived in Hangzhou, then moved to Suzhou; a note about the plumber. */
function seedMemory(dataDir: string): void {
  const dir = path.join(dataDir, 'memory');
  fs.mkdirSync(dir, { recursive: true });
  const store = MemoryStore.open(
    { graph: path.join(dir, 'graph.db'), text: path.join(dir, 'text'), documents: path.join(dir, 'documents') },
    pino({ level: 'silent' }),
  );
  try {
    const lin = { name: 'Lin', kind: 'person', aliases: ['my sister'] };
    store.record(
      {
        entities: [lin, { name: 'Hangzhou', kind: 'place' }],
        facts: [
          {
            subject: 'Lin',
            predicate: 'lives_in',
            object: 'Hangzhou',
            objectIsEntity: true,
            single: true,
            text: 'Lin lives in Hangzhou.',
            validFrom: '2020-01-01',
          },
        ],
      },
      { source: 'distill', session: 'cli:monday', turn: 2 },
    );
    store.record(
      {
        entities: [lin, { name: 'Suzhou', kind: 'place' }],
        facts: [
          {
            subject: 'Lin',
            predicate: 'lives_in',
            object: 'Suzhou',
            objectIsEntity: true,
            single: true,
            text: 'Lin lives in Suzhou.',
            validFrom: '2024-06-01',
          },
        ],
      },
      { source: 'distill', session: 'cli:friday', turn: 5 },
    );
    store.write('The plumber comes on Tuesday mornings.', { source: 'memory_write', actor: 'cli' });
  } finally {
    store.close();
  }
}

describe('the Memory page in chromium', { skip }, () => {
  let harness: BrowserHarness;
  const dataDir = makeTempDir();
  const search = async (query: string): Promise<MemoryHit[]> => (await callOnce(harness.live.homed.socket, SocketApi.MemorySearch, { query })).hits;

  before(async () => {
    seedMemory(dataDir);
    harness = await startBrowserHarness({ homed: { dataDir } });
  });
  after(async () => {
    await harness?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function openMemory(viewport?: { width: number; height: number }) {
    const guarded = await harness.signedInPage(viewport);
    await guarded.page.getByRole('button', { name: 'Memory', exact: true }).click();
    await guarded.page.getByRole('heading', { name: 'Search memory' }).waitFor();
    return guarded;
  }

  it('finds a memory with when it was learned and where it came from, and an entity with its superseded fact marked', async () => {
    const { context, page, foreign, errors } = await openMemory();
    await page.getByRole('searchbox', { name: 'What to look for' }).fill('plumber');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const hits = page.getByRole('list', { name: 'Memories found' });
    const hit = hits.getByRole('listitem').filter({ hasText: 'The plumber comes on Tuesday mornings.' });
    await hit.waitFor();
    const [expected] = await search('plumber');
    assert.ok(expected, 'the socket finds the note too');
    await hit.getByText(`from ${expected.source}`).waitFor();
    await hit.getByText(/^learned /).waitFor();

    await page.getByRole('textbox', { name: 'Name or alias' }).fill('my sister');
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    const facts = page.getByRole('list', { name: 'Facts about Lin' });
    const now = facts.getByRole('listitem').filter({ hasText: 'Lin lives in Suzhou.' });
    const old = facts.getByRole('listitem').filter({ hasText: 'Lin lives in Hangzhou.' });
    await now.waitFor();
    await old.getByText('superseded', { exact: true }).waitFor();
    assert.equal(await now.getByText('superseded', { exact: true }).count(), 0, 'the current fact is not marked');
    await old.getByText(/ended /).waitFor();
    await old.getByText(/cli:monday/).waitFor();
    assert.equal(await old.getByRole('button', { name: /^Forget/ }).count(), 0, 'a superseded fact has nothing to forget');
    const related = page.getByRole('list', { name: 'Related' });
    await related.getByRole('button', { name: 'Suzhou' }).waitFor();
    assert.equal(await related.getByRole('button', { name: 'Hangzhou' }).count(), 0, 'only the relations that hold now');
    await harness.screenshot(page, 'memory-desktop');
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('forgets a memory only after its confirmation, at 375 px', async () => {
    const { context, page, foreign, errors } = await openMemory(PHONE);
    await page.getByRole('searchbox', { name: 'What to look for' }).fill('plumber');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const text = 'The plumber comes on Tuesday mornings.';
    const forget = page.getByRole('button', { name: `Forget: ${text}` });
    await forget.click();
    const confirm = page.getByRole('group', { name: /^Forget “The plumber/ });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await forget.waitFor();
    assert.equal((await search('plumber')).length, 1, 'Cancel forgets nothing');

    await forget.click();
    const scrolls = (await page.evaluate('document.documentElement.scrollWidth')) as number;
    assert.ok(scrolls <= PHONE.width, `nothing is wider than the phone (${scrolls} px)`);
    await harness.screenshot(page, 'memory-phone');
    await confirm.getByRole('button', { name: 'Yes, forget it' }).click();
    await page.getByText('Nothing remembered matches.').waitFor();
    assert.deepEqual(await search('plumber'), []);
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
