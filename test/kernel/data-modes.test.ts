// The kernel's databases and memory folders are owner-only, whatever made them readable before.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { startTestKernel } from './kernel-harness';

test('config.db, agent.db, graph.db, the knowledge index and the memory folders end up 0600/0700', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'homed-modes-'));
  fs.mkdirSync(path.join(dataDir, 'memory', 'text'), { recursive: true, mode: 0o755 });
  fs.chmodSync(path.join(dataDir, 'memory', 'text'), 0o755);
  const k = await startTestKernel([], undefined, { dataDir });
  t.after(() => k.close());
  await k.kernel.recall.knowledgeReady;
  const mode = (rel: string): string => (fs.statSync(path.join(dataDir, rel)).mode & 0o777).toString(8);
  for (const file of ['config.db', 'agent.db', 'memory/graph.db', 'index/knowledge.db']) assert.equal(mode(file), '600', file);
  for (const dir of ['memory', 'memory/text', 'memory/documents', 'knowledge', 'index']) assert.equal(mode(dir), '700', dir);
});
