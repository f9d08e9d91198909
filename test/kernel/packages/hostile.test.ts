// Hostile archives generated here (yazl, then raw header edits where yazl refuses), so that every refusal is
// covered without the shared corpus: each is refused with its kind and rule, and the data dir is untouched.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { crc32 } from 'node:zlib';
import { DEFAULT_INSTALL_LIMITS, InstallError, inspectPackage, installPackage, type InstallErrorKind, type InstallOptions } from '../../../kernel/packages';
import { bytesWritten, expectRefused, makeSandbox, manifest, validFiles, zipBuffer } from './helpers';
import { buildZip, parseZip, rename, setBoth, type RawEntry, type RawZip } from './raw-zip';

const MIB = 1024 * 1024;
const UTF8 = 0x800;

/** A valid package, parsed for editing; `edit` breaks it. Entries: 0 plugin.json, 1 index.mjs, 2 lib/util.mjs. */
async function edited(edit: (zip: RawZip) => void, files: Parameters<typeof zipBuffer>[0] = validFiles()): Promise<Buffer> {
  const zip = parseZip(await zipBuffer(files));
  edit(zip);
  return buildZip(zip);
}

function entry(zip: RawZip, index: number): RawEntry {
  const found = zip.entries[index];
  assert.ok(found, `no entry ${index}`);
  return found;
}

/** The valid files plus `extra` (yazl options per file allowed). */
function withFiles(...extra: Parameters<typeof zipBuffer>[0]): Promise<Buffer> {
  return zipBuffer([...validFiles(), ...extra]);
}

interface Case {
  name: string;
  make: () => Promise<Buffer>;
  kind: InstallErrorKind;
  rule: string;
  options?: Omit<InstallOptions, 'pluginsDir'>;
}

const CASES: Case[] = [
  // container
  { name: 'random bytes', make: async () => randomBytes(4096), kind: 'NOT_ZIP', rule: 'container.no-end-record' },
  {
    name: 'a byte after the end record',
    make: async () => Buffer.concat([await zipBuffer(validFiles()), Buffer.from([0])]),
    kind: 'NOT_ZIP',
    rule: 'container.trailing-data',
  },
  {
    name: 'a multi-disk end record',
    make: async () => {
      const zip = await zipBuffer(validFiles());
      zip.writeUInt16LE(1, zip.length - 22 + 4);
      return zip;
    },
    kind: 'NOT_ZIP',
    rule: 'container.multi-disk',
  },
  // structure
  {
    name: 'an end record counting one entry too many',
    make: async () => {
      const zip = await zipBuffer(validFiles());
      zip.writeUInt16LE(4, zip.length - 22 + 8);
      zip.writeUInt16LE(4, zip.length - 22 + 10);
      return zip;
    },
    kind: 'CORRUPT',
    rule: 'structure.central-directory',
  },
  {
    name: 'a central record pointing at no local header',
    make: () => edited((z) => (entry(z, 2).central.offset = 5)),
    kind: 'CORRUPT',
    rule: 'structure.local-header',
  },
  // path
  { name: 'traversal ../evil.mjs', make: () => edited((z) => rename(entry(z, 2), '../evil.mjs')), kind: 'UNSAFE_PATH', rule: 'path.traversal' },
  {
    name: 'deep traversal lib/../../evil.mjs',
    make: () => edited((z) => rename(entry(z, 2), 'lib/../../evil.mjs')),
    kind: 'UNSAFE_PATH',
    rule: 'path.traversal',
  },
  { name: 'absolute /etc/evil', make: () => edited((z) => rename(entry(z, 2), '/etc/evil')), kind: 'UNSAFE_PATH', rule: 'path.absolute' },
  { name: 'drive letter C:/evil.mjs', make: () => edited((z) => rename(entry(z, 2), 'C:/evil.mjs')), kind: 'UNSAFE_PATH', rule: 'path.drive' },
  { name: 'backslash lib\\util.mjs', make: () => edited((z) => rename(entry(z, 2), 'lib\\util.mjs')), kind: 'UNSAFE_PATH', rule: 'path.backslash' },
  { name: 'backslash traversal ..\\evil.mjs', make: () => edited((z) => rename(entry(z, 2), '..\\evil.mjs')), kind: 'UNSAFE_PATH', rule: 'path.backslash' },
  { name: 'empty name', make: () => edited((z) => rename(entry(z, 2), '')), kind: 'UNSAFE_PATH', rule: 'path.empty' },
  { name: 'dot segment lib/./util.mjs', make: () => edited((z) => rename(entry(z, 2), 'lib/./util.mjs')), kind: 'UNSAFE_PATH', rule: 'path.dot-segment' },
  { name: 'empty segment lib//util.mjs', make: () => edited((z) => rename(entry(z, 2), 'lib//util.mjs')), kind: 'UNSAFE_PATH', rule: 'path.empty-segment' },
  { name: 'NUL in a name', make: () => edited((z) => rename(entry(z, 2), 'lib/a\0b.mjs')), kind: 'UNSAFE_PATH', rule: 'path.control' },
  { name: 'newline in a name', make: () => withFiles(['lib/a\nb.mjs', 'x']), kind: 'UNSAFE_PATH', rule: 'path.control' },
  { name: 'right-to-left override in a name', make: () => withFiles(['evil\u202Esj.mjs', 'x']), kind: 'UNSAFE_PATH', rule: 'path.control' },
  {
    name: 'a control byte in a CP437 name (shown as a glyph)',
    make: () =>
      edited((z) => {
        rename(entry(z, 2), Buffer.from('lib/a\x01b.mjs', 'latin1'));
        setBoth(entry(z, 2), 'flags', entry(z, 2).central.flags & ~UTF8);
      }),
    kind: 'UNSAFE_PATH',
    rule: 'path.control',
  },
  { name: 'a Windows-reserved character', make: () => withFiles(['lib/what?.mjs', 'x']), kind: 'UNSAFE_PATH', rule: 'path.reserved-char' },
  { name: 'a Windows device name', make: () => withFiles(['lib/CON.mjs', 'x']), kind: 'UNSAFE_PATH', rule: 'path.reserved-name' },
  { name: 'a segment ending in a dot', make: () => withFiles(['lib./x.mjs', 'x']), kind: 'UNSAFE_PATH', rule: 'path.trailing-dot-space' },
  { name: 'a name in NFD', make: () => withFiles(['cafe\u0301.mjs', 'x']), kind: 'UNSAFE_PATH', rule: 'path.not-nfc' },
  {
    name: 'invalid UTF-8 under the UTF-8 flag',
    make: () => edited((z) => rename(entry(z, 2), Buffer.from([0x6c, 0x69, 0x62, 0x2f, 0xc3, 0x28, 0x2e, 0x6a, 0x73]))),
    kind: 'UNSAFE_PATH',
    rule: 'path.encoding',
  },
  { name: 'a 256-byte name segment', make: () => withFiles([`${'a'.repeat(253)}.js`, 'x']), kind: 'UNSAFE_PATH', rule: 'path.segment-length' },
  {
    name: 'a 1,025-byte path',
    make: () => withFiles([`${Array.from({ length: 8 }, () => 'b'.repeat(127)).join('/')}/x.js`, 'x']),
    kind: 'UNSAFE_PATH',
    rule: 'path.length',
  },
  // duplicates
  { name: 'the same name twice', make: () => withFiles(['index.mjs', 'export default {};']), kind: 'DUPLICATE_PATH', rule: 'duplicate.name' },
  { name: 'a case collision', make: () => withFiles(['Index.mjs', 'x']), kind: 'DUPLICATE_PATH', rule: 'duplicate.name' },
  {
    name: 'a case collision through full folding (ß / SS)',
    make: () => withFiles(['lib/straße.js', 'x'], ['lib/STRASSE.js', 'y']),
    kind: 'DUPLICATE_PATH',
    rule: 'duplicate.name',
  },
  {
    name: 'an NFC / NFD collision (the NFD spelling is refused first, as not NFC)',
    make: () => withFiles(['caf\u00e9.mjs', 'x'], ['cafe\u0301.mjs', 'y']),
    kind: 'UNSAFE_PATH',
    rule: 'path.not-nfc',
  },
  {
    name: 'a path that is a file and a folder',
    make: () =>
      edited((z) => {
        rename(entry(z, 1), 'lib/');
        setBoth(entry(z, 1), 'compressedSize', 0);
        setBoth(entry(z, 1), 'uncompressedSize', 0);
        entry(z, 1).data = Buffer.alloc(0);
        entry(z, 1).central.external = (0o040755 << 16) >>> 0;
        rename(entry(z, 2), 'lib');
      }),
    kind: 'DUPLICATE_PATH',
    rule: 'duplicate.file-and-folder',
  },
  {
    name: 'a file used as a folder',
    make: () => withFiles(['assets', 'x'], ['assets/icon.txt', 'y']),
    kind: 'DUPLICATE_PATH',
    rule: 'duplicate.file-as-folder',
  },
  // entry types
  { name: 'a symlink', make: () => withFiles(['link.mjs', '../../../../etc/passwd', { mode: 0o120777 }]), kind: 'UNSUPPORTED_ENTRY', rule: 'type.symlink' },
  {
    name: 'a symlink used as a folder (reported as the symlink)',
    make: () => withFiles(['escape', '/', { mode: 0o120777 }], ['escape/tmp/evil.mjs', 'x']),
    kind: 'UNSUPPORTED_ENTRY',
    rule: 'type.symlink',
  },
  { name: 'a FIFO', make: () => withFiles(['pipe', '', { mode: 0o010644 }]), kind: 'UNSUPPORTED_ENTRY', rule: 'type.special' },
  { name: 'a block device', make: () => withFiles(['disk', '', { mode: 0o060644 }]), kind: 'UNSUPPORTED_ENTRY', rule: 'type.special' },
  {
    name: 'a folder that carries data',
    make: () => edited((z) => rename(entry(z, 3), 'data/'), [...validFiles(), ['data', Buffer.from('hidden'), { mode: 0o040755, compress: false }]]),
    kind: 'UNSUPPORTED_ENTRY',
    rule: 'type.folder-with-data',
  },
  {
    name: 'a folder name with a regular-file mode',
    make: () => edited((z) => rename(entry(z, 2), 'lib/')),
    kind: 'UNSUPPORTED_ENTRY',
    rule: 'type.mode-mismatch',
  },
  // encryption and compression
  {
    name: 'the encryption flag (bit 0)',
    make: () => edited((z) => setBoth(entry(z, 2), 'flags', entry(z, 2).central.flags | 0x1)),
    kind: 'ENCRYPTED',
    rule: 'encryption.flag',
  },
  {
    name: 'the strong encryption flag (bit 6) on the local header only',
    make: () => edited((z) => (entry(z, 2).local.flags |= 0x40)),
    kind: 'ENCRYPTED',
    rule: 'encryption.flag',
  },
  { name: 'WinZip AES (method 99)', make: () => edited((z) => setBoth(entry(z, 2), 'method', 99)), kind: 'ENCRYPTED', rule: 'encryption.aes' },
  { name: 'method 1 (Shrink)', make: () => edited((z) => setBoth(entry(z, 2), 'method', 1)), kind: 'UNSUPPORTED_COMPRESSION', rule: 'compression.method' },
  { name: 'method 12 (bzip2)', make: () => edited((z) => setBoth(entry(z, 2), 'method', 12)), kind: 'UNSUPPORTED_COMPRESSION', rule: 'compression.method' },
  // limits
  {
    name: '1,001 entries (default limit 1,000)',
    make: () => withFiles(...Array.from({ length: 1001 - 3 }, (_, i) => [`assets/${i}.txt`, 'x'] as [string, string])),
    kind: 'LIMIT_EXCEEDED',
    rule: 'limit.entries',
  },
  {
    name: 'a path 17 levels deep (default limit 16)',
    make: () => withFiles([`${Array.from({ length: 16 }, () => 'd').join('/')}/x.js`, 'x']),
    kind: 'LIMIT_EXCEEDED',
    rule: 'limit.depth',
  },
  {
    name: 'an entry over the per-entry limit',
    make: () => withFiles(['assets/big.bin', randomBytes(4096)]),
    kind: 'LIMIT_EXCEEDED',
    rule: 'limit.entry-size',
    options: { limits: { ...DEFAULT_INSTALL_LIMITS, maxEntryBytes: 4000 } },
  },
  {
    name: 'entries over the total limit',
    make: () => withFiles(['a.bin', randomBytes(3000)], ['b.bin', randomBytes(3000)]),
    kind: 'LIMIT_EXCEEDED',
    rule: 'limit.total-size',
    options: { limits: { ...DEFAULT_INSTALL_LIMITS, maxTotalBytes: 5000 } },
  },
  {
    name: 'an archive over the size limit',
    make: () => withFiles(['a.bin', randomBytes(3000)]),
    kind: 'LIMIT_EXCEEDED',
    rule: 'limit.archive-size',
    options: { limits: { ...DEFAULT_INSTALL_LIMITS, maxArchiveBytes: 2048 } },
  },
  {
    name: 'a 1000:1 entry past the grace size',
    make: () => withFiles(['assets/zeros.bin', Buffer.alloc(4 * MIB)]),
    kind: 'LIMIT_EXCEEDED',
    rule: 'limit.ratio',
  },
  // overlap
  { name: 'two records sharing one local header', make: () => edited((z) => (entry(z, 2).central.offset = 0)), kind: 'OVERLAP', rule: 'overlap.entries' },
  {
    name: 'an entry running into the central directory',
    make: () =>
      edited(
        (z) => {
          const last = entry(z, 3);
          setBoth(last, 'compressedSize', last.central.compressedSize + 20);
          setBoth(last, 'uncompressedSize', last.central.uncompressedSize + 20);
        },
        [...validFiles(), ['notes.txt', Buffer.from('some notes')]],
      ),
    kind: 'OVERLAP',
    rule: 'overlap.central-directory',
  },
  // ambiguity
  { name: 'ZIP64 records in a small package', make: () => zipBuffer(validFiles(), { forceZip64Format: true }), kind: 'AMBIGUOUS', rule: 'ambiguous.zip64' },
  {
    name: 'a Unicode Path extra field',
    make: () =>
      edited((z) => {
        const e = entry(z, 2);
        const unicode = Buffer.from('lib/other.mjs');
        const data = Buffer.alloc(5);
        data.writeUInt8(1, 0);
        data.writeUInt32LE(crc32(e.central.name), 1);
        const header = Buffer.alloc(4);
        header.writeUInt16LE(0x7075, 0);
        header.writeUInt16LE(5 + unicode.length, 2);
        e.central.extra = Buffer.concat([e.central.extra, header, data, unicode]);
      }),
    kind: 'AMBIGUOUS',
    rule: 'ambiguous.unicode-path',
  },
  {
    name: 'a non-ASCII name without the UTF-8 flag',
    make: () =>
      edited((z) => {
        rename(entry(z, 2), 'lib/caf\u00e9.mjs');
        setBoth(entry(z, 2), 'flags', entry(z, 2).central.flags & ~UTF8);
      }),
    kind: 'AMBIGUOUS',
    rule: 'ambiguous.name-encoding',
  },
  {
    name: 'a local header naming another file',
    make: () => edited((z) => (entry(z, 2).local.name = Buffer.from('lib/evil.mjs'))),
    kind: 'AMBIGUOUS',
    rule: 'ambiguous.local-name',
  },
  { name: 'a local header with another method', make: () => edited((z) => (entry(z, 2).local.method = 0)), kind: 'AMBIGUOUS', rule: 'ambiguous.local-method' },
  {
    name: 'a local header announcing a data descriptor',
    make: () => edited((z) => (entry(z, 2).local.flags |= 0x8)),
    kind: 'AMBIGUOUS',
    rule: 'ambiguous.local-flags',
  },
  {
    name: 'a shell script before the first entry',
    make: () => edited((z) => (z.prefix = Buffer.from('#!/bin/sh\necho hi\nexit 0\n'))),
    kind: 'AMBIGUOUS',
    rule: 'ambiguous.prefix',
  },
  {
    name: 'unclaimed bytes between entries',
    make: () => edited((z) => (entry(z, 0).gapAfter = Buffer.from('PK hidden entry'))),
    kind: 'AMBIGUOUS',
    rule: 'ambiguous.gap',
  },
  {
    name: 'a local header stating another size (found after the data)',
    make: () => edited((z) => (entry(z, 2).local.uncompressedSize += 1)),
    kind: 'AMBIGUOUS',
    rule: 'ambiguous.local-sizes',
  },
  // data
  { name: 'a CRC that does not match', make: () => edited((z) => setBoth(entry(z, 2), 'crc', entry(z, 2).central.crc ^ 1)), kind: 'CORRUPT', rule: 'data.crc' },
  { name: 'broken deflate data', make: () => edited((z) => entry(z, 2).data.fill(0xff)), kind: 'CORRUPT', rule: 'data.inflate' },
  {
    name: 'a size lie: declared smaller than the data',
    make: () => edited((z) => setBoth(entry(z, 2), 'uncompressedSize', 10)),
    kind: 'CORRUPT',
    rule: 'data.size',
  },
  {
    name: 'a size lie: declared larger than the data',
    make: () => edited((z) => setBoth(entry(z, 2), 'uncompressedSize', 1000)),
    kind: 'CORRUPT',
    rule: 'data.size',
  },
  // package
  { name: 'no plugin.json', make: () => zipBuffer(validFiles().slice(1)), kind: 'INVALID_PACKAGE', rule: 'package.no-manifest' },
  {
    name: 'plugin.json in a subfolder only',
    make: () =>
      zipBuffer([
        ['sub/plugin.json', manifest()],
        ['sub/index.mjs', 'x'],
      ]),
    kind: 'INVALID_PACKAGE',
    rule: 'package.no-manifest',
  },
  {
    name: 'plugin.json that is not JSON',
    make: () =>
      zipBuffer([
        ['plugin.json', '{ name: weather'],
        ['index.mjs', 'x'],
      ]),
    kind: 'INVALID_PACKAGE',
    rule: 'package.manifest-json',
  },
  {
    name: 'plugin.json with an upper-case name',
    make: () =>
      zipBuffer([
        ['plugin.json', manifest('Weather')],
        ['index.mjs', 'x'],
      ]),
    kind: 'INVALID_PACKAGE',
    rule: 'package.manifest-schema',
  },
  {
    name: 'plugin.json asking for an unknown permission',
    make: () =>
      zipBuffer([
        ['plugin.json', manifest('weather', '1.0.0', { permissions: ['root'] })],
        ['index.mjs', 'x'],
      ]),
    kind: 'INVALID_PACKAGE',
    rule: 'package.manifest-schema',
  },
  { name: 'an entry that is not in the package', make: () => zipBuffer([['plugin.json', manifest()]]), kind: 'INVALID_PACKAGE', rule: 'package.entry-missing' },
  {
    name: 'an entry of no known kind (.cjs)',
    make: () =>
      zipBuffer([
        ['plugin.json', manifest('weather', '1.0.0', { entry: 'index.cjs' })],
        ['index.cjs', 'x'],
      ]),
    kind: 'INVALID_PACKAGE',
    rule: 'package.entry-kind',
  },
  { name: 'a skill.json that is not JSON', make: () => withFiles(['skill.json', '{oops']), kind: 'INVALID_PACKAGE', rule: 'package.skill-json' },
  {
    name: 'the name of a built-in plugin',
    make: () => zipBuffer(validFiles('cli')),
    kind: 'INVALID_PACKAGE',
    rule: 'package.builtin-name',
    options: { builtinNames: ['cli', 'timer'] },
  },
  {
    name: 'a package needing a later HomeAgent',
    make: () =>
      zipBuffer([
        ['plugin.json', manifest('weather', '1.0.0', { homeagent: '0.2.0' })],
        ['index.mjs', 'x'],
      ]),
    kind: 'INVALID_PACKAGE',
    rule: 'package.homeagent-version',
    options: { homeagentVersion: '0.1.0' },
  },
  {
    name: 'a package asking for HomeAgent "soon"',
    make: () =>
      zipBuffer([
        ['plugin.json', manifest('weather', '1.0.0', { homeagent: 'soon' })],
        ['index.mjs', 'x'],
      ]),
    kind: 'INVALID_PACKAGE',
    rule: 'package.homeagent-version',
    options: { homeagentVersion: '0.1.0' },
  },
];

for (const c of CASES) {
  test(`${c.name}: ${c.kind} (${c.rule}), the data dir untouched`, async (t) => {
    const sandbox = makeSandbox(t);
    await installPackage(sandbox.file('keeper.hmap', await zipBuffer(validFiles('keeper'))), { pluginsDir: sandbox.pluginsDir });
    sandbox.file('plugin-data/keeper/state.json', '{"kept":true}');
    const file = sandbox.file('hostile.hmap', await c.make());
    const error = await expectRefused(sandbox, file, c.kind, c.rule, c.options);
    assert.equal(error.archive, 'hostile.hmap');
    const inspected = await inspectPackage(file, c.options?.limits, c.options ?? {}).then(
      () => assert.fail('inspectPackage accepted it'),
      (e: unknown) => e,
    );
    assert.ok(inspected instanceof InstallError);
    assert.equal(`${inspected.kind} ${inspected.rule}`, `${c.kind} ${c.rule}`, 'inspectPackage gives the same verdict');
  });
}

test('a ratio bomb within the size limits is stopped once past the grace size: about 1 MiB written, not 16', async (t) => {
  const sandbox = makeSandbox(t);
  const file = sandbox.file('bomb.hmap', await withFiles(['assets/zeros.bin', Buffer.alloc(16 * MIB)]));
  const before = bytesWritten();
  const error = await expectRefused(sandbox, file, 'LIMIT_EXCEEDED', 'limit.ratio');
  const after = bytesWritten();
  assert.equal(error.stage, 'data');
  if (before !== undefined && after !== undefined) assert.ok(after - before < 2 * MIB, `wrote ${after - before} bytes`);
});

test('a size lie (declares 1 KiB, inflates to 32 MiB) is stopped at the declared size', async (t) => {
  const sandbox = makeSandbox(t);
  const zip = parseZip(await withFiles(['assets/zeros.bin', Buffer.alloc(32 * MIB)]));
  setBoth(entry(zip, 3), 'uncompressedSize', 1024);
  const file = sandbox.file('liar.hmap', buildZip(zip));
  const before = bytesWritten();
  const error = await expectRefused(sandbox, file, 'CORRUPT', 'data.size');
  const after = bytesWritten();
  assert.equal(error.stage, 'data');
  if (before !== undefined && after !== undefined) assert.ok(after - before < 256 * 1024, `wrote ${after - before} bytes`);
});

test('a refusal says what was wrong, where, and what to do, and becomes a wire error with the facts', async (t) => {
  const sandbox = makeSandbox(t);
  const file = sandbox.file('weather-1.0.0.hmap', await edited((z) => rename(entry(z, 2), '../\u202Eevil.mjs')));
  const error = await expectRefused(sandbox, file, 'UNSAFE_PATH', 'path.traversal');
  assert.equal(error.entry, '../\\u{202e}evil.mjs');
  assert.equal(
    error.message,
    'entry "../\\u{202e}evil.mjs" of weather-1.0.0.hmap is refused: its name climbs out of the plugin folder with ".." (UNSAFE_PATH, rule path.traversal); ' +
      'ask its author to rebuild it with scripts/hmap-pack, which writes only plain files with safe names',
  );
  const wire = error.toResponseError();
  assert.deepEqual(wire.data, {
    name: 'HA_ERR_INVALID_VALUE',
    kind: 'UNSAFE_PATH',
    rule: 'path.traversal',
    stage: 'preflight',
    entry: '../\\u{202e}evil.mjs',
    archive: 'weather-1.0.0.hmap',
  });
  const limited = await expectRefused(sandbox, sandbox.file('many.hmap', await withFiles(['a.txt', 'x'])), 'LIMIT_EXCEEDED', 'limit.entries', {
    limits: { ...DEFAULT_INSTALL_LIMITS, maxEntries: 3 },
  });
  assert.match(limited.message, /declares 4 entries, over the limit of 3 .*homectl config set core\.packages\.max_entries 4$/);
});
