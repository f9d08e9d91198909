// The download rules on their own: which sources are taken, where redirects may lead, how files are named,
// and the copy that stops at its cap.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { copyCapped } from '../../../plugins/pluginmgr/capped-copy';
import { nextHop, parseSource } from '../../../plugins/pluginmgr/download';
import { packageFileName } from '../../../plugins/pluginmgr/staging';

test('takes http(s) and file URLs and absolute paths, nothing else', () => {
  assert.deepEqual(parseSource('https://example.org/a.hmap'), { kind: 'http', url: new URL('https://example.org/a.hmap') });
  assert.deepEqual(parseSource('file:///srv/a.hmap'), { kind: 'file', path: '/srv/a.hmap' });
  assert.deepEqual(parseSource('/srv/../srv/a.hmap'), { kind: 'file', path: '/srv/a.hmap' });
  for (const [given, why] of [
    ['ftp://example.org/a.hmap', /ftp:\/\/ URLs are not taken/],
    ['data:application/zip;base64,UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==', /data:\/\/ URLs are not taken/],
    ['a.hmap', /neither a URL nor an absolute path/],
    ['file://example.org/a.hmap', /not a file URL of this machine/],
  ] as const) {
    assert.throws(
      () => parseSource(given),
      (error: Error & { status?: number }) => why.test(error.message) && error.status === 400,
      given,
    );
  }
});

test('follows redirects to http(s) only, and never from https down to http', () => {
  assert.equal(nextHop(new URL('http://a.example/x'), 'https://b.example/y.hmap').href, 'https://b.example/y.hmap');
  assert.equal(nextHop(new URL('https://a.example/x/'), '../y.hmap').href, 'https://a.example/y.hmap');
  assert.throws(() => nextHop(new URL('https://a.example/x'), 'http://a.example/y.hmap'), /from https:\/\/ down to http:\/\/a\.example\/y\.hmap/);
  assert.throws(
    () => nextHop(new URL('http://a.example/x'), 'file:///etc/passwd'),
    /redirected to file:\/\/.*only http:\/\/ and https:\/\/ redirects are followed/,
  );
  assert.throws(() => nextHop(new URL('http://a.example/x'), 'javascript:alert(1)'), /javascript:\/\//);
});

test('names a temporary package after its URL, safely', () => {
  assert.equal(packageFileName('/dl/weather-1.0.0.hmap'), 'weather-1.0.0.hmap');
  assert.equal(packageFileName('/dl/weather%201.0.zip'), 'weather_1.0.zip');
  assert.equal(packageFileName('/dl/..%2F..%2Fetc%2Fpasswd'), 'passwd.hmap');
  assert.equal(packageFileName('/dl/...hidden'), 'hidden.hmap');
  assert.match(packageFileName('/'), /^package-[0-9a-f]{6}\.hmap$/);
  assert.equal(packageFileName(`/${'a'.repeat(300)}.hmap`).length, 105);
});

test('copies with a hash, and stops at the cap without writing past it', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pluginmgr-copy-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const copied = await copyCapped(
    Readable.from([Buffer.from('abc'), Buffer.from('def')]),
    path.join(dir, 'ok'),
    6,
    () => new Error('too large'),
    new AbortController().signal,
  );
  assert.deepEqual(copied, { bytes: 6, sha256: 'bef57ec7f53a6d40beb640a780a639c83bc29ac8a9816f1fc6c5c6dcd93c4721' });
  assert.equal(fs.statSync(path.join(dir, 'ok')).mode & 0o777, 0o600);
  let pulled = 0;
  const endless = new Readable({
    read() {
      pulled += 1;
      this.push(Buffer.alloc(1024));
    },
  });
  await assert.rejects(
    copyCapped(endless, path.join(dir, 'big'), 10 * 1024, () => new Error('too large'), new AbortController().signal),
    /too large/,
  );
  // The cap may end the copy before the file was even created: then nothing at all was written.
  const big = path.join(dir, 'big');
  const written = fs.existsSync(big) ? fs.statSync(big).size : 0;
  assert.ok(written <= 10 * 1024, `nothing past the cap is written (${written} bytes)`);
  assert.ok(pulled < 64, `the source was read ${pulled} times after the cap`);
});
