import assert from 'node:assert/strict';
import test from 'node:test';
import { chunkDocument, decodeDocument } from '../../../kernel/knowledge/chunk-file';
import { classifyFile, isIgnoredName } from '../../../kernel/knowledge/formats';

const MANUAL = `---
title: Coffee Machine CM-200
author: someone
---

Read this manual before first use.

# Cleaning

General advice on keeping it clean.

## Descaling

Descale every 3 months with citric acid.
Run two tanks of clean water afterwards.

\`\`\`sh
# this is not a heading
descale --start
\`\`\`

## Milk frother

Rinse after every use.

Frother Parts
-------------

The whisk comes apart.

# Warranty

Two years.
`;

test('Markdown is cut at headings and each chunk keeps its heading path and first line', () => {
  const chunks = chunkDocument('manual.md', MANUAL, 'markdown', 1200);
  const byHeading = new Map(chunks.map((c) => [c.heading, c]));
  assert.deepEqual(
    chunks.map((c) => c.heading),
    [
      'Coffee Machine CM-200',
      'Coffee Machine CM-200 > Cleaning',
      'Coffee Machine CM-200 > Cleaning > Descaling',
      'Coffee Machine CM-200 > Cleaning > Milk frother',
      'Coffee Machine CM-200 > Cleaning > Frother Parts',
      'Coffee Machine CM-200 > Warranty',
    ],
  );
  const descaling = byHeading.get('Coffee Machine CM-200 > Cleaning > Descaling')!;
  assert.match(descaling.text, /citric acid/);
  assert.match(descaling.text, /# this is not a heading/, 'a # line inside fenced code stays text');
  assert.equal(descaling.line, 14, 'line of the first text under the heading');
  assert.equal(byHeading.get('Coffee Machine CM-200 > Warranty')!.line, 33);
  assert.equal(byHeading.get('Coffee Machine CM-200 > Cleaning > Frother Parts')!.line, 29, 'setext heading');
  assert.ok(!chunks.some((c) => c.text.includes('author: someone')), 'front matter is not indexed as text');
});

test('a long section is cut into chunks no larger than the limit, at paragraphs first', () => {
  const paragraphs = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} ${'word '.repeat(40)}`.trim());
  const doc = `# Long\n\n${paragraphs.join('\n\n')}\n`;
  const chunks = chunkDocument('long.md', doc, 'markdown', 500);
  assert.ok(chunks.length >= 6, `cut into ${chunks.length} chunks`);
  for (const chunk of chunks) {
    assert.ok(chunk.text.length <= 500, `chunk of ${chunk.text.length} characters`);
    assert.equal(chunk.heading, 'Long');
    assert.match(chunk.text, /^Paragraph \d+/, 'each chunk starts at a paragraph');
  }
  assert.equal(chunks[1]!.line, 3 + 2 * Number(/^Paragraph (\d+)/.exec(chunks[1]!.text)![1]));
  const oneLine = chunkDocument('line.txt', 'x'.repeat(2600), 'text', 1000);
  assert.deepEqual(
    oneLine.map((c) => c.text.length),
    [1000, 1000, 600],
    'a single long line is cut anywhere as a last resort',
  );
});

test('chunk ids are stable for the same content and differ when file, heading or text differ', () => {
  const a = chunkDocument('a.md', MANUAL, 'markdown', 1200);
  assert.deepEqual(
    chunkDocument('a.md', MANUAL, 'markdown', 1200).map((c) => c.id),
    a.map((c) => c.id),
  );
  const renamed = chunkDocument('b.md', MANUAL, 'markdown', 1200);
  assert.ok(renamed.every((c, i) => c.id !== a[i]!.id));
  const edited = chunkDocument('a.md', MANUAL.replace('Two years.', 'Three years.'), 'markdown', 1200);
  assert.deepEqual(
    edited.filter((c, i) => c.id !== a[i]!.id).map((c) => c.heading),
    ['Coffee Machine CM-200 > Warranty'],
  );
  const repeated = chunkDocument('r.md', '# A\n\nsame\n\n# A\n\nsame\n', 'markdown', 1200);
  assert.equal(new Set(repeated.map((c) => c.id)).size, 2, 'a repeated chunk in one file gets its own id');
});

test('plain text is cut at blank lines; reStructuredText and AsciiDoc titles become headings', () => {
  const text = chunkDocument('notes.txt', 'First paragraph.\n\n\nSecond paragraph\nstill second.\n', 'text', 20);
  assert.deepEqual(
    text.map((c) => [c.heading, c.text, c.line]),
    [
      ['', 'First paragraph.', 1],
      ['', 'Second paragraph', 4],
      ['', 'still second.', 5],
    ],
  );
  assert.deepEqual(
    chunkDocument('notes.txt', 'First paragraph.\n\nSecond.\n', 'text', 200).map((c) => c.text),
    ['First paragraph.\n\nSecond.'],
    'short paragraphs share a chunk',
  );
  const rst = chunkDocument('guide.rst', 'Guide\n=====\n\nIntro text.\n\nInstall\n-------\n\nRun the installer.\n\nAgain\n=====\n\nTop level.\n', 'rst', 1200);
  assert.deepEqual(
    rst.map((c) => [c.heading, c.text]),
    [
      ['Guide', 'Intro text.'],
      ['Guide > Install', 'Run the installer.'],
      ['Again', 'Top level.'],
    ],
  );
  const adoc = chunkDocument('guide.adoc', '= Guide\n\nIntro.\n\n== Setup\n\nPlug it in.\n', 'asciidoc', 1200);
  assert.deepEqual(
    adoc.map((c) => [c.heading, c.text]),
    [
      ['Guide', 'Intro.'],
      ['Guide > Setup', 'Plug it in.'],
    ],
  );
});

test('HTML loses scripts, styles and tags, keeps its title and headings, decodes entities', () => {
  const html = `<!DOCTYPE html>
<html><head><title>Router Manual</title><style>p { color: red }</style></head>
<body>
<script>var secret = "do not index";</script>
<h1>Reset</h1>
<p>Hold the <b>reset</b> button for 10&nbsp;seconds &amp; wait.</p>
<h2>Lights</h2>
<ul><li>Green: online</li><li>Red: offline</li></ul>
</body></html>`;
  const chunks = chunkDocument('router.html', html, 'html', 1200);
  assert.deepEqual(
    chunks.map((c) => c.heading),
    ['Router Manual > Reset', 'Router Manual > Reset > Lights'],
  );
  assert.equal(chunks[0]!.text, 'Hold the reset button for 10 seconds & wait.');
  assert.equal(chunks[0]!.line, 6);
  assert.match(chunks[1]!.text, /- Green: online\n- Red: offline/);
  assert.ok(!chunks.some((c) => /secret|color/.test(c.text)));
});

test('HTML tags and comments embedded in Markdown are dropped, escaped angle brackets are kept', () => {
  const chunks = chunkDocument('x.md', '# API\n\n<!-- DEMO -->\n|loading <sup class="version-after">2.4.0+</sup>|Array\\<Options\\>|\n', 'markdown', 1200);
  assert.equal(chunks[0]!.text, '|loading 2.4.0+|Array\\<Options\\>|');
});

test('formats: supported, refused with a reason, and names never looked at', () => {
  assert.deepEqual(classifyFile('a/b/Manual.MD'), { format: 'markdown' });
  assert.deepEqual(classifyFile('x.htm'), { format: 'html' });
  assert.match((classifyFile('scan.pdf') as { reason: string }).reason, /PDF/);
  assert.match((classifyFile('data.csv') as { reason: string }).reason, /data files/);
  assert.match((classifyFile('Makefile') as { reason: string }).reason, /without an extension/);
  for (const name of ['.hidden.md', '.git', 'notes.md~', '#notes.md#', '.notes.md.swp', 'notes.md.tmp', '4913', '~$report.docx', 'a.md___jb_tmp___']) {
    assert.equal(isIgnoredName(name), true, name);
  }
  assert.equal(isIgnoredName('notes.md'), false);
});

test('bytes are decoded as UTF-8 or BOM-marked UTF-16; NUL bytes mean binary', () => {
  assert.deepEqual(decodeDocument(Buffer.from('\ufeff除垢 guide', 'utf8')), { text: '除垢 guide' }, 'a UTF-8 byte-order mark is dropped');
  assert.deepEqual(decodeDocument(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hello', 'utf16le')])), { text: 'hello' });
  assert.match((decodeDocument(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00])) as { reason: string }).reason, /binary/);
});
