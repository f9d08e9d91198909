// A process that indexes a knowledge folder the way homed does at start (open = load + catch up),
// writing index snapshots as often as it can; crash.test.ts kills it with SIGKILL part way through.
// Usage: node index-child.js DIR INDEX_DIR
import pino from 'pino';
import { KnowledgeBase } from '../../../kernel/knowledge';

async function main(): Promise<void> {
  const [dir, indexDir] = process.argv.slice(2);
  if (!dir || !indexDir) throw new Error('usage: index-child DIR INDEX_DIR');
  const base = await KnowledgeBase.open({ dir, indexDir, log: pino({ level: 'warn' }, pino.destination(2)), watch: false, policy: { snapshotDelayMs: 1 } });
  await base.close();
  process.stdout.write('indexed\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
