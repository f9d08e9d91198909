import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Extraction } from '../../../kernel/memory';
import { DAY, dayFile, openTestMemory, SESSION } from './helpers';

const LIN: Extraction = {
  entities: [{ name: 'Lin', kind: 'person' }],
  facts: [
    { subject: 'Lin', predicate: 'lives_in', object: 'Hangzhou', objectIsEntity: true, text: 'Lin lives in Hangzhou.', single: true },
    { subject: 'Lin', predicate: 'birthday', object: '3 May', text: "Lin's birthday is 3 May.", single: true },
  ],
};

test('each fact and note is a bullet in its day file, with a marker naming it; each entity gets a document', () => {
  const m = openTestMemory();
  try {
    const [lives, birthday] = m.store.record(LIN, SESSION).written;
    const note = m.store.write('Buy more oat milk', { source: 'person' });
    const day = m.read(dayFile(m.clock.ms));
    assert.match(day, /^# \d{4}-\d{2}-\d{2}\n/);
    assert.ok(day.includes(`- Lin lives in Hangzhou. <!-- ${lives!.id} -->\n`), day);
    assert.ok(day.includes(`- Lin's birthday is 3 May. <!-- ${birthday!.id} -->\n`), day);
    assert.ok(day.includes(`- Buy more oat milk <!-- ${note.id} -->\n`), day);
    m.clock.advance(DAY);
    m.store.record({ entities: [], facts: [{ subject: 'Lin', predicate: 'likes', object: 'tea', text: 'Lin likes tea.' }] }, SESSION);
    assert.ok(m.read(dayFile(m.clock.ms)).includes('- Lin likes tea.'), 'the next day has its own file');
    assert.equal(m.read(dayFile(m.clock.ms - DAY)).includes('tea'), false);
    const doc = m.read('documents/lin.md');
    assert.match(doc, /^# Lin\n/);
    assert.ok(doc.includes(`- Lin lives in Hangzhou. <!-- ${lives!.id} -->`), doc);
    assert.ok(doc.includes('- Lin likes tea.'), doc);
    assert.ok(doc.includes('_person_'));
    assert.ok(m.read('documents/hangzhou.md').includes('## Mentioned in\n- Lin lives in Hangzhou.'));
    const leftovers = fs.readdirSync(path.join(m.dir, 'memory', 'text')).filter((f) => f.endsWith('.tmp'));
    assert.deepEqual(leftovers, [], 'writes go through a temp file and a rename');
  } finally {
    m.close();
  }
});

test("a person's edits of a day file: changed words edit the fact, a deleted line forgets it, a new line is a note", () => {
  const m = openTestMemory();
  try {
    const [lives, birthday] = m.store.record(LIN, SESSION).written;
    const rel = dayFile(m.clock.ms);
    const edited = m
      .read(rel)
      .replace('Lin lives in Hangzhou.', 'Lin lives in Hangzhou, near the West Lake.')
      .replace(/- Lin's birthday.*\n/, '')
      .concat('- The plumber comes on Tuesday\n');
    m.edit(rel, edited);
    const synced = m.store.syncFiles();
    assert.deepEqual(synced.changed, [rel]);
    assert.equal(synced.notes, 3);

    const lake = m.store.search('West Lake');
    assert.deepEqual(
      lake.map((h) => h.id),
      [lives!.id],
      'found by the new words',
    );
    const fact = m.store.entity('Lin')!.facts.find((f) => f.id === lives!.id)!;
    assert.equal(fact.text, 'Lin lives in Hangzhou, near the West Lake.');
    assert.deepEqual(
      fact.provenance.map((p) => [p.action, p.source, p.file ?? p.session]),
      [
        ['learned', 'distill', 's1'],
        ['edited', 'person', rel],
      ],
    );
    assert.equal(fact.provenance[1]?.detail, 'Lin lives in Hangzhou.', 'the history keeps the old words');

    const gone = m.store.entity('Lin')!.facts.find((f) => f.id === birthday!.id)!;
    assert.equal(gone.validity, 'forgotten');
    assert.deepEqual(gone.provenance.at(-1), { source: 'person', file: rel, action: 'forgotten', at: m.clock.ms });
    assert.deepEqual(m.store.search('birthday'), []);

    const plumber = m.store.search('plumber');
    assert.equal(plumber[0]?.kind, 'note');
    assert.equal(plumber[0]?.source, `file ${rel}`);
    assert.ok(m.read(rel).includes(`- The plumber comes on Tuesday <!-- ${plumber[0]!.id} -->`), 'the new line got its marker');
    assert.ok(m.read('documents/lin.md').includes('near the West Lake'), 'the document follows the edit');
    assert.deepEqual(m.store.syncFiles(), { notes: 0, documents: 0, changed: [] }, 'a second sync finds nothing new');
  } finally {
    m.close();
  }
});

test('a line moved to another day file moves the fact; edits made while closed are picked up at open', () => {
  const m = openTestMemory();
  try {
    const [lives] = m.store.record(LIN, SESSION).written;
    const from = dayFile(m.clock.ms);
    m.store.close();
    const line = m
      .read(from)
      .split('\n')
      .find((l) => l.includes(lives!.id))!;
    m.edit(from, m.read(from).replace(`${line}\n`, ''));
    m.edit('text/ideas.md', `# Ideas\n\n${line.replace('Hangzhou', 'Hangzhou (Xihu district)')}\nPaint the fence green\n`);
    m.reopen();
    const fact = m.store.factsAbout('Lin').find((f) => f.id === lives!.id)!;
    assert.equal(fact.validity, 'current', 'moved, not forgotten');
    assert.equal(fact.text, 'Lin lives in Hangzhou (Xihu district).');
    assert.deepEqual(
      fact.provenance.map((p) => p.action),
      ['learned', 'moved', 'edited'],
    );
    assert.equal(m.store.search('fence')[0]?.source, 'file text/ideas.md');
  } finally {
    m.close();
  }
});

test('forgetting through the API strikes the line through; the day file keeps it', () => {
  const m = openTestMemory();
  try {
    const [lives] = m.store.record(LIN, SESSION).written;
    m.store.forget(lives!.id, { source: 'person' });
    const rel = dayFile(m.clock.ms);
    assert.ok(m.read(rel).includes(`- ~~Lin lives in Hangzhou.~~ <!-- ${lives!.id} forgotten -->`), m.read(rel));
    assert.equal(m.read('documents/lin.md').includes('Lin lives in Hangzhou.'), false, 'the document lists what is known, not what was forgotten');
    assert.deepEqual(m.store.syncFiles().changed, [], 'our own rewrite is not taken for a person edit');
  } finally {
    m.close();
  }
});

test("a person's notes in a document are kept when the generated block is rewritten, and are searchable", () => {
  const m = openTestMemory();
  try {
    m.store.record(LIN, SESSION);
    const doc = m.read('documents/lin.md');
    m.edit('documents/lin.md', `${doc.trimEnd()}\n\nShe prefers green tea and hates cilantro.\n`);
    assert.equal(m.store.syncFiles().documents, 1);
    const hit = m.store.search('cilantro')[0];
    assert.equal(hit?.kind, 'document');
    assert.equal(hit?.source, 'file documents/lin.md');
    assert.match(hit?.text ?? '', /^Lin: .*cilantro/);
    m.store.record(
      { entities: [], facts: [{ subject: 'Lin', predicate: 'works_at', object: 'ACME', objectIsEntity: true, text: 'Lin works at ACME.' }] },
      SESSION,
    );
    const after = m.read('documents/lin.md');
    assert.ok(after.includes('- Lin works at ACME.'), 'the block was rewritten');
    assert.ok(after.includes('She prefers green tea and hates cilantro.'), 'the notes were kept');
  } finally {
    m.close();
  }
});

test('edits inside the generated block act on the facts; other lines typed there move below it', () => {
  const m = openTestMemory();
  try {
    const [lives, birthday] = m.store.record(LIN, SESSION).written;
    const doc = m.read('documents/lin.md');
    const edited = doc
      .replace('Lin lives in Hangzhou.', 'Lin lives in Hangzhou with her cat.')
      .replace(/- Lin's birthday.*\n/, '')
      .replace('## Facts\n', '## Facts\nAsk her about the new job\n');
    m.edit('documents/lin.md', edited);
    m.store.syncFiles();
    const facts = m.store.entity('Lin')!.facts;
    assert.equal(facts.find((f) => f.id === lives!.id)?.text, 'Lin lives in Hangzhou with her cat.');
    assert.equal(facts.find((f) => f.id === birthday!.id)?.validity, 'forgotten');
    assert.equal(facts.find((f) => f.id === birthday!.id)?.provenance.at(-1)?.file, 'documents/lin.md');
    const after = m.read('documents/lin.md');
    const end = after.indexOf('<!-- memory:end -->');
    assert.ok(after.indexOf('Ask her about the new job') > end, after);
    const day = m.read(dayFile(m.clock.ms));
    assert.ok(day.includes(`- Lin lives in Hangzhou with her cat. <!-- ${lives!.id} -->`), 'the day file follows the document');
    assert.ok(day.includes(`<!-- ${birthday!.id} forgotten -->`), day);
    assert.deepEqual(m.store.syncFiles().changed, []);
  } finally {
    m.close();
  }
});

test('a document whose markers a person removed is theirs and never written again', () => {
  const m = openTestMemory();
  try {
    m.store.record(LIN, SESSION);
    const mine = '# Lin\n\nMy own page about Lin. She lives by the lake.\n';
    m.edit('documents/lin.md', mine);
    m.store.syncFiles();
    m.store.record({ entities: [], facts: [{ subject: 'Lin', predicate: 'likes', object: 'tea', text: 'Lin likes tea.' }] }, SESSION);
    m.reopen();
    assert.equal(m.read('documents/lin.md'), mine);
    assert.equal(m.store.search('lake')[0]?.kind, 'document');
    assert.equal(m.store.factsAbout('Lin').length, 3, 'the facts themselves are untouched');
  } finally {
    m.close();
  }
});

test('a deleted day file forgets its items; a deleted document comes back when its entity changes', () => {
  const m = openTestMemory();
  try {
    m.store.record(LIN, SESSION);
    fs.rmSync(path.join(m.dir, 'memory', dayFile(m.clock.ms)));
    fs.rmSync(path.join(m.dir, 'memory', 'documents', 'lin.md'));
    m.store.syncFiles();
    assert.deepEqual(m.store.factsAbout('Lin'), []);
    m.clock.advance(DAY);
    m.store.record({ entities: [], facts: [{ subject: 'Lin', predicate: 'likes', object: 'tea', text: 'Lin likes tea.' }] }, SESSION);
    assert.ok(m.read('documents/lin.md').includes('Lin likes tea.'));
  } finally {
    m.close();
  }
});

test('facts recorded while the files could not be written reach them at the next open', () => {
  const m = openTestMemory({ writeFiles: false });
  try {
    m.store.record(LIN, SESSION);
    assert.equal(fs.existsSync(m.paths.text), false);
    m.reopen(true);
    assert.ok(m.read(dayFile(m.clock.ms)).includes('Lin lives in Hangzhou.'));
    assert.ok(m.read('documents/lin.md').includes("Lin's birthday is 3 May."));
  } finally {
    m.close();
  }
});

test('an edit not yet synced is taken in, not overwritten, when new facts rewrite the same files', () => {
  const m = openTestMemory();
  try {
    const [lives, birthday] = m.store.record(LIN, SESSION).written;
    const rel = dayFile(m.clock.ms);
    m.edit(rel, m.read(rel).replace("Lin's birthday is 3 May.", "Lin's birthday is on 3 May, like Mum's."));
    m.edit('documents/lin.md', m.read('documents/lin.md').replace('Lin lives in Hangzhou.', 'Lin lives in Hangzhou, Xihu.'));
    m.store.record({ entities: [], facts: [{ subject: 'Lin', predicate: 'likes', object: 'tea', text: 'Lin likes tea.' }] }, SESSION);
    const facts = m.store.entity('Lin')!.facts;
    assert.equal(facts.find((f) => f.id === birthday!.id)?.text, "Lin's birthday is on 3 May, like Mum's.");
    assert.equal(facts.find((f) => f.id === lives!.id)?.text, 'Lin lives in Hangzhou, Xihu.');
    const doc = m.read('documents/lin.md');
    assert.ok(doc.includes('Lin lives in Hangzhou, Xihu.') && doc.includes("like Mum's") && doc.includes('Lin likes tea.'), doc);
    const day = m.read(rel);
    assert.ok(day.includes('Lin lives in Hangzhou, Xihu.') && day.includes("like Mum's") && day.includes('Lin likes tea.'), day);
  } finally {
    m.close();
  }
});

test('a person can forget an item by flagging its marker', () => {
  const m = openTestMemory();
  try {
    const [lives] = m.store.record(LIN, SESSION).written;
    const rel = dayFile(m.clock.ms);
    m.edit(rel, m.read(rel).replace(`<!-- ${lives!.id} -->`, `<!-- ${lives!.id} forgotten -->`));
    assert.equal(m.store.syncFiles().notes, 1);
    assert.equal(m.store.entity('Lin')!.facts.find((f) => f.id === lives!.id)?.validity, 'forgotten');
    assert.deepEqual(m.store.search('Hangzhou'), []);
  } finally {
    m.close();
  }
});
