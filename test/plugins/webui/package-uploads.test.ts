// The webui's package uploads against a kernel started in-process (its real installer), called as the webui plugin
// would: a package is described without being installed, deleted at its deadline, refused past the cap or past the
// number that may wait, kept from another browser, and refused at install when its bytes changed since shown.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { PackageUploads, PackageUploadError } from '../../../plugins/webui/package-uploads';
import { packPlugin } from '../../../scripts/pack/pack';
import { inject, type Injected } from '../../harness/inject';
import { waitFor } from '../../harness/wait';
import { startTestKernel, type TestKernel } from '../../kernel/kernel-harness';
import { FIXTURE_PACKAGES } from '../pluginmgr/helpers';

describe('package uploads of the web page', () => {
  let kernel: TestKernel;
  let webui: Injected;
  let work: string;
  let v1: Buffer;
  const uploads = (keepMs = 60_000): PackageUploads => {
    const made = new PackageUploads({ kernel: webui.client, pluginData: fs.mkdtempSync(path.join(work, 'data-')), policy: { keepMs, maxWaiting: 2 } });
    made.prepare();
    return made;
  };
  const filesIn = (made: PackageUploads): string[] => fs.readdirSync(made.root);
  const refusal = (status: number, pattern: RegExp) => (error: unknown) =>
    error instanceof PackageUploadError && error.status === status && pattern.test(error.message);

  before(async () => {
    kernel = await startTestKernel([]);
    webui = inject(kernel.kernel, { name: 'webui', permissions: ['admin'] });
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'webui-packages-'));
    v1 = fs.readFileSync((await packPlugin(path.join(FIXTURE_PACKAGES, 'weather-js-v1'), work)).file);
  });
  after(async () => {
    webui?.close();
    await kernel?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('describes a package without installing it, and deletes it at its deadline', async () => {
    const made = uploads(1000);
    const summary = await made.receive('s1', 'weather-1.0.0.hmap', Readable.from([v1]), v1.length);
    assert.equal(summary.name, 'weather');
    assert.equal(summary.version, '1.0.0');
    assert.equal(summary.installedVersion, null);
    assert.deepEqual(summary.permissions, ['tools']);
    assert.match(summary.sha256, /^[0-9a-f]{64}$/);
    assert.equal(kernel.kernel.supervisor.plugins.has('weather'), false, 'nothing is installed');
    assert.equal(filesIn(made).length, 1);
    await waitFor(() => made.size === 0 && filesIn(made).length === 0, { what: 'the upload to be deleted at its deadline', timeoutMs: 10_000 });
    await assert.rejects(made.install('s1', summary.id), refusal(404, /kept past 1 s; upload the file again/));
  });

  it('refuses a body past the cap, a third waiting upload, and another browser’s upload; keeps no file of a refusal', async () => {
    const made = uploads();
    await assert.rejects(made.receive('s1', 'big.hmap', Readable.from([v1]), v1.length - 1), refusal(413, /larger than/));
    assert.deepEqual(filesIn(made), []);
    const first = await made.receive('s1', 'a.hmap', Readable.from([v1]), v1.length);
    await made.receive('s1', 'b.hmap', Readable.from([v1]), v1.length);
    await assert.rejects(made.receive('s1', 'c.hmap', Readable.from([v1]), v1.length), refusal(429, /already wait/));
    await assert.rejects(made.install('s2', first.id), refusal(404, /gone/));
    assert.equal(made.discard('s2', first.id), false);
    assert.equal(made.discard('s1', first.id), true);
    assert.equal(made.size, 1);
    made.close();
  });

  it('refuses at install a file whose bytes changed since they were shown, and deletes it', async () => {
    const made = uploads();
    const summary = await made.receive('s1', 'weather.hmap', Readable.from([v1]), v1.length);
    const [dir] = filesIn(made);
    assert.ok(dir);
    const file = path.join(made.root, dir, 'weather.hmap');
    fs.appendFileSync(file, 'x');
    await assert.rejects(made.install('s1', summary.id), refusal(409, /changed since it was shown/));
    assert.deepEqual(filesIn(made), []);
    assert.equal(kernel.kernel.supervisor.plugins.has('weather'), false);
  });

  it('answers the kernel’s own refusal of a package that is not one', async () => {
    const made = uploads();
    await assert.rejects(made.receive('s1', 'notes.hmap', Readable.from([Buffer.from('not a zip at all')]), 1000), (error: unknown) => {
      return error instanceof PackageUploadError && error.status === 422 && /notes\.hmap/.test(error.message) && error.code === 'HA_ERR_INVALID_VALUE';
    });
    assert.deepEqual(filesIn(made), []);
  });
});
