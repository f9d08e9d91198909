// The token and the files that carry it: private from the first byte, replaced whole, compared in constant time.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import {
  createToken,
  credentialFiles,
  removeCredentials,
  removeIfOwn,
  tokenMatches,
  writeCredentials,
  writePrivateFile,
} from '../../../plugins/pluginmgr/http/credentials';
import { allowedHosts, checkHost, checkToken } from '../../../plugins/pluginmgr/http/guard';

test('a private file is 0600 whatever the umask, replaces an open file whole and leaves no temporary behind', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pluginmgr-cred-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'pluginmgr.token');
  fs.writeFileSync(file, 'old', { mode: 0o644 });
  const previous = process.umask(0);
  try {
    writePrivateFile(file, 'secret\n');
  } finally {
    process.umask(previous);
  }
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  assert.equal(fs.readFileSync(file, 'utf8'), 'secret\n');
  assert.deepEqual(fs.readdirSync(dir), ['pluginmgr.token']);
  const files = credentialFiles(dir);
  const written = writeCredentials(files, 'tok', 1234);
  assert.equal(fs.readFileSync(files.port, 'utf8'), '1234\n');
  assert.deepEqual(removeCredentials(written), []);
  assert.deepEqual(removeCredentials(written), []);
  assert.deepEqual(fs.readdirSync(dir), []);
});

test('removes the token and port files only while they are the ones it wrote', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pluginmgr-cred-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const files = credentialFiles(dir);
  const first = writeCredentials(files, 'first-token', 4000);
  // A second process writes its own files over them: a new file each, the port even with the same text.
  const second = writeCredentials(files, 'second-token', 4000);
  assert.deepEqual(removeCredentials(first).sort(), [files.port, files.token].sort());
  assert.equal(fs.readFileSync(files.token, 'utf8'), 'second-token\n');
  assert.equal(fs.readFileSync(files.port, 'utf8'), '4000\n');
  // The same file with other content (written in place) is not its own either.
  fs.writeFileSync(files.token, 'edited\n');
  assert.deepEqual(removeCredentials(second), [files.token]);
  assert.deepEqual(fs.readdirSync(dir), ['pluginmgr.token']);
  assert.equal(removeIfOwn({ ...second.token, path: path.join(dir, 'gone') }), true, 'a missing file counts as removed');
});

test('tokens are 256 random bits in hex, and only the exact token matches', () => {
  const token = createToken();
  assert.match(token, /^[0-9a-f]{64}$/);
  assert.notEqual(createToken(), token);
  assert.ok(tokenMatches(token, token));
  for (const other of ['', token.slice(1), `${token}0`, token.toUpperCase(), createToken()]) assert.ok(!tokenMatches(other, token), other);
});

test('the guard takes only loopback Hosts with the port, and a bearer token', () => {
  const hosts = allowedHosts(8080);
  for (const host of ['127.0.0.1:8080', 'localhost:8080', '[::1]:8080']) assert.doesNotThrow(() => checkHost({ host }, hosts));
  for (const host of [undefined, '127.0.0.1', '127.0.0.1:8081', 'evil.example:8080', '127.0.0.1:8080.evil.example']) {
    assert.throws(
      () => checkHost(host === undefined ? {} : { host }, hosts),
      (error: Error & { status?: number }) => error.status === 421,
      String(host),
    );
  }
  const token = createToken();
  assert.doesNotThrow(() => checkToken({ authorization: `Bearer ${token}` }, token, '/run/pluginmgr.token'));
  assert.doesNotThrow(() => checkToken({ authorization: `bearer  ${token} ` }, token, '/run/pluginmgr.token'));
  for (const authorization of [undefined, token, `Basic ${token}`, `Bearer ${token} extra`, `Bearer`]) {
    assert.throws(
      () => checkToken(authorization === undefined ? {} : { authorization }, token, '/run/pluginmgr.token'),
      (error: Error & { status?: number; headers?: Record<string, string> }) =>
        error.status === 401 && /^Bearer /.test(error.headers?.['www-authenticate'] ?? ''),
      String(authorization),
    );
  }
});
