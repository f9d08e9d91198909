// Two processes recording into one change store at once (as the files and exec plugins do): every set lands, with
// its own id, and the blobs they share are whole.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ChangeStore } from '../../../plugin-host/tracker';

const TRACKER = path.resolve(__dirname, '..', '..', '..', 'plugin-host', 'tracker');
const SETS_EACH = 150;

const WRITER = `
const { ChangeStore } = require(${JSON.stringify(TRACKER)});
const fs = require('node:fs'), path = require('node:path');
const [dataDir, root, name, count] = process.argv.slice(1);
const store = ChangeStore.open(dataDir);
for (let i = 0; i < Number(count); i++) {
  const file = path.join(root, name + i);
  const before = store.stateOf(file);
  fs.writeFileSync(file, 'shared bytes\\n' + (i % 3));
  store.record({ session: name, tool: 'test', callId: String(i), summary: name + i, mode: 'direct', entries: [{ path: file, before, after: store.stateOf(file) }] });
}
store.close();
`;

function runWriter(dataDir: string, root: string, name: string): Promise<number | null> {
  const child = spawn(process.execPath, ['-e', WRITER, dataDir, root, name, String(SETS_EACH)], { stdio: ['ignore', 'ignore', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
}

describe('change store shared by two processes', () => {
  it('records every set of both, with distinct ids', async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-two-'));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const dataDir = path.join(dir, 'data');
    const root = path.join(dir, 'root');
    fs.mkdirSync(root);
    ChangeStore.open(dataDir).close();
    const codes = await Promise.all([runWriter(dataDir, root, 'a'), runWriter(dataDir, root, 'b')]);
    assert.deepEqual(codes, [0, 0]);
    const store = ChangeStore.open(dataDir);
    t.after(() => store.close());
    const sets = store.list({ limit: 10_000 });
    assert.equal(sets.length, 2 * SETS_EACH);
    assert.equal(new Set(sets.map((s) => s.id)).size, 2 * SETS_EACH);
    assert.equal(store.list({ session: 'a', limit: 10_000 }).length, SETS_EACH);
    const blobs = fs.readdirSync(store.blobs.dir);
    assert.equal(blobs.length, 3, `three distinct contents, kept once each: ${blobs.join(', ')}`);
    assert.match(store.show(sets[0]?.id ?? '').diff, /^\+shared bytes$/m);
  });
});
