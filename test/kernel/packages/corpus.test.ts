// Every archive in ../shared/corpus/zips, installed in place, to the outcome SOURCE.md gives it, with the
// data dir (plugins folder and an installed plugin included) exactly as it was before each refusal.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test, type TestContext } from 'node:test';
import { InstallError, inspectPackage, installPackage, type InstallErrorKind } from '../../../kernel/packages';
import { bytesWritten, expectRefused, makeSandbox, validFiles, zipBuffer, ZIP_CORPUS, type Sandbox } from './helpers';

const SKIP_NOTE = `the shared ZIP corpus is not present (${ZIP_CORPUS}); hostile.test.ts generates the same kinds of archive`;

// [file, kind, rule]. Where SOURCE.md allows two kinds the comment says which other one it accepts.
const EXPECTED: [string, InstallErrorKind, string][] = [
  ['bombs/10GB.zip.bz2', 'NOT_ZIP', 'container.no-end-record'],
  ['bombs/commons-compress-zipbomb.xlsx', 'LIMIT_EXCEEDED', 'limit.ratio'],
  ['bombs/libarchive-test_read_format_zip_high_compression.zip', 'INVALID_PACKAGE', 'package.no-manifest'],
  ['bombs/zbsm.zip', 'LIMIT_EXCEEDED', 'limit.entry-size'],
  ['other/commons-compress-COMPRESS-214_unix_symlinks.zip', 'UNSUPPORTED_ENTRY', 'type.symlink'],
  ['other/commons-compress-COMPRESS-227.zip', 'DUPLICATE_PATH', 'duplicate.name'],
  ['other/commons-compress-COMPRESS-379.jar', 'UNSUPPORTED_ENTRY', 'type.special'],
  ['other/decompress-slip.zip', 'UNSUPPORTED_ENTRY', 'type.symlink'],
  ['other/decompress-slip2.zip', 'UNSUPPORTED_ENTRY', 'type.symlink'],
  ['other/decompress-slip3.zip', 'UNSUPPORTED_ENTRY', 'type.symlink'],
  ['other/dotnet-InvalidWindowsFileNameChars.zip', 'UNSAFE_PATH', 'path.reserved-char'],
  ['other/dotnet-NullCharFileName_FromUnix.zip', 'UNSAFE_PATH', 'path.control'],
  ['other/dotnet-backslashes_FromWindows.zip', 'UNSAFE_PATH', 'path.backslash'],
  ['other/dotnet-encrypted_entries_aes256.zip', 'ENCRYPTED', 'encryption.flag'],
  ['other/dotnet-filenameTimeAndSizesDifferentInLH.zip', 'AMBIGUOUS', 'ambiguous.local-name'],
  ['other/dotnet-nameDuplicates.zip', 'DUPLICATE_PATH', 'duplicate.name'],
  ['other/dotnet-nameEmpty.zip', 'UNSAFE_PATH', 'path.empty'],
  ['other/dotnet-nameSlashedAndNonzero.zip', 'UNSUPPORTED_ENTRY', 'type.folder-with-data'],
  ['other/dotnet-prepended.zip', 'AMBIGUOUS', 'ambiguous.prefix'],
  ['other/go-dupdir.zip', 'DUPLICATE_PATH', 'duplicate.file-and-folder'],
  ['other/go-symlink.zip', 'UNSUPPORTED_ENTRY', 'type.symlink'],
  // SOURCE.md: CORRUPT (its CRC), or AMBIGUOUS first when flags are compared, as they are here.
  ['other/libarchive-test_read_format_zip.zip', 'AMBIGUOUS', 'ambiguous.local-flags'],
  ['other/libarchive-test_read_format_zip_7075_utf8_paths.zip', 'AMBIGUOUS', 'ambiguous.unicode-path'],
  ['other/libarchive-test_read_format_zip_uncompressed_size_off_by_4gib.zip', 'CORRUPT', 'structure.central-directory'],
  // SOURCE.md: AMBIGUOUS under a no-ZIP64 policy (ours).
  ['other/libarchive-test_read_format_zip_with_invalid_traditional_eocd.zip', 'AMBIGUOUS', 'ambiguous.zip64'],
  ['other/zip2-invalid_cde_number_of_files_allocation_smaller_offset.zip', 'NOT_ZIP', 'container.zip64-end-record'],
  ['yauzl-failure/End of central directory record signature not found Either not a zip file or file is truncated.zip', 'NOT_ZIP', 'container.no-end-record'],
  ['yauzl-failure/End of central directory record signature not found Either not a zip file or file is truncated_1.zip', 'NOT_ZIP', 'container.no-end-record'],
  [
    'yauzl-failure/Invalid comment length Expected 1 Found 0 Are there extra bytes at the end of the file Or is the end of central dir signature PK in the com.zip',
    'NOT_ZIP',
    'container.trailing-data',
  ],
  ['yauzl-failure/absolute path C xt.zip', 'UNSAFE_PATH', 'path.drive'],
  ['yauzl-failure/absolute path atxt.zip', 'UNSAFE_PATH', 'path.absolute'],
  ['yauzl-failure/compressed uncompressed size mismatch for stored file 2147483647 5.zip', 'CORRUPT', 'structure.central-directory'],
  ['yauzl-failure/extra field length exceeds extra field buffer size.zip', 'CORRUPT', 'structure.central-directory'],
  // SOURCE.md: LIMIT_EXCEEDED or CORRUPT; yauzl's bounds check of the local header comes first here.
  ['yauzl-failure/file data overflows file bounds 63 2147483647 308.zip', 'CORRUPT', 'structure.local-header'],
  ['yauzl-failure/invalid central directory file header signature 0x1014b50.zip', 'CORRUPT', 'structure.central-directory'],
  ['yauzl-failure/invalid characters in fileName a txt.zip', 'UNSAFE_PATH', 'path.backslash'],
  ['yauzl-failure/invalid code lengths set.zip', 'CORRUPT', 'data.inflate'],
  ['yauzl-failure/invalid local file header signature 0x3034b50.zip', 'CORRUPT', 'structure.local-header'],
  ['yauzl-failure/invalid relative path xt.zip', 'UNSAFE_PATH', 'path.traversal'],
  ['yauzl-failure/invalid zip64 end of central directory record signature.zip', 'NOT_ZIP', 'container.zip64-end-record'],
  ['yauzl-failure/multi-disk zip files are not supported found disk number 1.zip', 'NOT_ZIP', 'container.multi-disk'],
  ['yauzl-failure/not enough bytes in the stream expected 2048576 got only 1000000.zip', 'CORRUPT', 'data.size'],
  ['yauzl-failure/strong encryption is not supported.zip', 'ENCRYPTED', 'encryption.strong'],
  // SOURCE.md: CORRUPT or LIMIT_EXCEEDED; the size lie is caught at the first byte past the declared size.
  ['yauzl-failure/too many bytes in the stream expected 82496 got at least 98304.zip', 'CORRUPT', 'data.size'],
  ['yauzl-failure/too many length or distance symbols.zip', 'CORRUPT', 'data.inflate'],
  ['yauzl-failure/unexpected EOF.zip', 'CORRUPT', 'structure.local-header'],
  ['yauzl-failure/unsupported compression method 1.zip', 'UNSUPPORTED_COMPRESSION', 'compression.method'],
  ['yauzl-failure/zip64 extended information extra field does not include compressed size.zip', 'CORRUPT', 'structure.central-directory'],
  ['yauzl-failure/zip64 extended information extra field does not include relative header offset.zip', 'CORRUPT', 'structure.central-directory'],
  ['yauzl-failure/zip64 extended information extra field does not include uncompressed size.zip', 'CORRUPT', 'structure.central-directory'],
  ['yauzl-success/bogus-compression-method.zip', 'UNSUPPORTED_COMPRESSION', 'compression.method'],
  ['yauzl-success/directories.zip', 'INVALID_PACKAGE', 'package.no-manifest'],
  ['yauzl-success/empty.zip', 'INVALID_PACKAGE', 'package.no-manifest'],
  ['yauzl-success/linux-info-zip.zip', 'INVALID_PACKAGE', 'package.no-manifest'],
  ['yauzl-success/sloppy-filenames.zip', 'UNSAFE_PATH', 'path.backslash'],
  ['yauzl-success/streaming.zip', 'INVALID_PACKAGE', 'package.no-manifest'],
  ['yauzl-success/traditional-encryption.zip', 'ENCRYPTED', 'encryption.flag'],
  ['yauzl-success/unicode-path-extra-field.zip', 'AMBIGUOUS', 'ambiguous.unicode-path'],
  ['yauzl-success/windows-7-zip.zip', 'INVALID_PACKAGE', 'package.no-manifest'],
  ['yauzl-success/wrong-entry-sizes.zip', 'CORRUPT', 'structure.central-directory'],
  // SOURCE.md: AMBIGUOUS under a no-ZIP64 policy (ours).
  ['yauzl-success/zip64.zip', 'AMBIGUOUS', 'ambiguous.zip64'],
  ['zip-slip/zip-slip-win.tar', 'NOT_ZIP', 'container.no-end-record'],
  ['zip-slip/zip-slip-win.zip', 'UNSAFE_PATH', 'path.backslash'],
  ['zip-slip/zip-slip.tar', 'NOT_ZIP', 'container.no-end-record'],
  ['zip-slip/zip-slip.zip', 'UNSAFE_PATH', 'path.traversal'],
];

function corpusPresent(t: TestContext): boolean {
  if (fs.existsSync(ZIP_CORPUS)) return true;
  t.skip(SKIP_NOTE);
  return false;
}

/** A sandbox with one plugin already installed, so that "untouched" covers an installed plugin too. */
async function sandboxWithPlugin(t: TestContext): Promise<Sandbox> {
  const sandbox = makeSandbox(t);
  await installPackage(sandbox.file('keeper.hmap', await zipBuffer(validFiles('keeper'))), { pluginsDir: sandbox.pluginsDir });
  sandbox.file('plugin-data/keeper/state.json', '{"kept":true}');
  return sandbox;
}

test('the table names every archive in the corpus, and only those', (t) => {
  if (!corpusPresent(t)) return;
  const onDisk: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name !== 'SOURCE.md' && entry.name !== '.gitattributes') onDisk.push(path.relative(ZIP_CORPUS, full));
    }
  };
  walk(ZIP_CORPUS);
  assert.deepEqual(onDisk.sort(), EXPECTED.map(([file]) => file).sort());
});

for (const [file, kind, rule] of EXPECTED) {
  test(`${file}: ${kind} (${rule}), nothing written, the same verdict from inspectPackage`, async (t) => {
    if (!corpusPresent(t)) return;
    const sandbox = await sandboxWithPlugin(t);
    const archive = path.join(ZIP_CORPUS, file);
    const error = await expectRefused(sandbox, archive, kind, rule);
    assert.equal(error.archive, path.basename(file));
    assert.match(error.message, new RegExp(`\\(${kind}, rule ${rule.replace('.', '\\.')}\\)`));
    const inspected = await inspectPackage(archive).then(
      () => assert.fail('inspectPackage accepted it'),
      (e: unknown) => e,
    );
    assert.ok(inspected instanceof InstallError);
    assert.equal(inspected.kind, kind);
    assert.equal(inspected.rule, rule);
  });
}

test('zbsm.zip (250 overlapping entries, 5.46 GB declared) is refused in pre-flight, having written nothing', async (t) => {
  if (!corpusPresent(t)) return;
  const sandbox = makeSandbox(t);
  const before = bytesWritten();
  const started = process.hrtime.bigint();
  const error = await expectRefused(sandbox, path.join(ZIP_CORPUS, 'bombs', 'zbsm.zip'), 'LIMIT_EXCEEDED', 'limit.entry-size');
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const written = bytesWritten();
  assert.equal(error.stage, 'preflight');
  if (before !== undefined && written !== undefined) {
    // The process's own writes during the attempt (a few log lines at most), far below one entry's limit.
    assert.ok(written - before < 1024 * 1024, `wrote ${written - before} bytes`);
  }
  t.diagnostic(`refused zbsm.zip in ${ms.toFixed(1)} ms`);
});

test('10GB.zip (bunzip2-ed here, a 32-bit size lie) is refused in pre-flight by its declared size', async (t) => {
  if (!corpusPresent(t)) return;
  if (spawnSync('bunzip2', ['--help'], { stdio: 'ignore' }).error !== undefined) {
    t.skip('bunzip2 is not installed, and Node has no bzip2; install bzip2 to run this case');
    return;
  }
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'ha-10gb-'));
  t.after(() => fs.rmSync(temp, { recursive: true, force: true }));
  const zip = path.join(temp, '10GB.zip');
  const out = fs.openSync(zip, 'w');
  const result = spawnSync('bunzip2', ['-c', path.join(ZIP_CORPUS, 'bombs', '10GB.zip.bz2')], { stdio: ['ignore', out, 'pipe'] });
  fs.closeSync(out);
  assert.equal(result.status, 0, String(result.stderr));
  assert.equal(fs.statSync(zip).size, 10_191_787);
  const sandbox = makeSandbox(t);
  const error = await expectRefused(sandbox, zip, 'LIMIT_EXCEEDED', 'limit.entry-size');
  assert.equal(error.stage, 'preflight');
  assert.match(error.message, /declares 1895825408 bytes/);
});
