// Issue 9's figures: sessions never wait on each other. Turns per second for 1, 4 and 16 sessions against a
// fake model with 200 ms to its first token, beside the ideal (sessions × 1/latency, capped by
// max_concurrent_turns); the delay a hung provider in one session adds to another session's turns; and what
// writing each input ahead and checkpointing its answer costs per turn.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SessionStore } from '../../kernel/agent/sessions';
import { startFakeLlm, type FakeLlm } from '../../test/fake-llm/server';
import { SocketClient, startHomed } from './homed-process';
import { makeRow, type BenchRow } from './results';
import { quantile, sleep } from './stats';
import { SocketApi } from '../../protocol';

const SECTION = '9 lanes';
const TTFT_MS = 200;
/** core.agent.max_concurrent_turns as shipped. */
const LANES = 4;
const OTHER_TURNS = 40;
const JOURNAL_TURNS = 2000;

export async function benchLanes(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const llm = await startFakeLlm();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-lanes-'));
  const homed = await startHomed(dataDir, llm);
  const socket = path.join(dataDir, 'run', 'homed.sock');
  const clients: SocketClient[] = [];
  try {
    llm.setDefault({ text: 'ok', firstTokenDelayMs: TTFT_MS });
    for (const sessions of [1, 4, 16]) {
      while (clients.length < sessions) clients.push(await SocketClient.connect(socket));
      const turnsEach = sessions === 1 ? 10 : sessions === 4 ? 10 : 5;
      const rate = await turnsPerSecond(clients.slice(0, sessions), turnsEach, `tps-${sessions}`);
      const ideal = Math.min(sessions, LANES) / (TTFT_MS / 1000);
      rows.push(
        makeRow(
          SECTION,
          `turns/s, ${sessions} session${sessions === 1 ? '' : 's'} (model: ${TTFT_MS} ms to first token)`,
          rate,
          'turns/s',
          `ideal min(sessions, ${LANES}) / latency`,
          ideal,
          sessions * turnsEach,
          { kind: 'ratio-at-least', min: 0.8 },
        ),
      );
    }
    const [calm, hung] = await delayBesideHungProvider(clients[0]!, clients[1]!, llm);
    rows.push(
      makeRow(
        SECTION,
        "another session's turn p50 while one session's provider hangs",
        quantile(hung, 0.5),
        'ms',
        'the same turns with no hung session, p50',
        quantile(calm, 0.5),
        OTHER_TURNS,
      ),
      makeRow(
        SECTION,
        "another session's turn p99 while one session's provider hangs",
        quantile(hung, 0.99),
        'ms',
        'the same turns with no hung session, p99',
        quantile(calm, 0.99),
        OTHER_TURNS,
      ),
      makeRow(
        SECTION,
        "delay a hung provider adds to another session's turn, p99",
        Math.max(0, quantile(hung, 0.99) - quantile(calm, 0.99)),
        'ms',
        'turn p99 with no hung session',
        quantile(calm, 0.99),
        OTHER_TURNS,
        { kind: 'value-at-most', max: 20 },
      ),
    );
  } finally {
    for (const client of clients) client.close();
    homed.kill('SIGTERM');
    await new Promise((resolve) => homed.once('exit', resolve));
    await llm.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const journal = measureJournal();
  rows.push(
    makeRow(
      SECTION,
      'agent.db work per turn p50, with write-ahead and a checkpoint',
      quantile(journal.with, 0.5),
      'ms',
      'storing the turn alone p50',
      quantile(journal.without, 0.5),
      JOURNAL_TURNS,
    ),
    makeRow(
      SECTION,
      'write-ahead and checkpoint cost per turn p50',
      quantile(journal.with, 0.5) - quantile(journal.without, 0.5),
      'ms',
      'storing the turn alone p50',
      quantile(journal.without, 0.5),
      JOURNAL_TURNS,
      { kind: 'value-at-most', max: 0.5 },
    ),
  );
  return rows;
}

/** Each client is a session sending its next message when the last is answered; answers turns per second over all. */
async function turnsPerSecond(clients: SocketClient[], turnsEach: number, prefix: string): Promise<number> {
  const started = performance.now();
  await Promise.all(
    clients.map(async (client, s) => {
      for (let i = 0; i < turnsEach; i++) await client.call(SocketApi.ChatSay, { session: `${prefix}-${s}`, text: `question ${i}` });
    }),
  );
  return (clients.length * turnsEach) / ((performance.now() - started) / 1000);
}

/** One session's turns timed alone, then again while another session's provider never answers. */
async function delayBesideHungProvider(client: SocketClient, hungClient: SocketClient, llm: FakeLlm): Promise<[number[], number[]]> {
  llm.setDefault({ text: 'ok' });
  const timeTurns = async (session: string): Promise<number[]> => {
    const times: number[] = [];
    for (let i = 0; i < OTHER_TURNS + 3; i++) {
      const sent = performance.now();
      await client.call(SocketApi.ChatSay, { session, text: `question ${i}` });
      if (i >= 3) times.push(performance.now() - sent);
    }
    return times;
  };
  const calm = await timeTurns('calm');
  // The next request to reach the fake hangs (headers, then nothing for ten minutes); the rest answer at once.
  const before = llm.requests.length;
  llm.enqueue({ text: 'never', firstTokenDelayMs: 600_000 });
  const hanging = hungClient.call(SocketApi.ChatSay, { session: 'hung', text: 'hang' }).catch(() => undefined);
  while (llm.requests.length === before) await sleep(5);
  const hung = await timeTurns('beside-hung');
  hungClient.notify(SocketApi.ChatInterrupt, { session: 'hung' });
  await hanging;
  return [calm, hung];
}

/** agent.db per turn: journal the input, mark it running, one checkpoint, store the turn (which ends the row) — and storing alone. */
function measureJournal(): { with: number[]; without: number[] } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-journal-'));
  const store = new SessionStore(path.join(dir, 'agent.db'));
  const turn = (i: number) => [
    { role: 'user' as const, content: `question ${i}: what is on the shopping list for the weekend?` },
    { role: 'assistant' as const, content: `Answer ${i}: milk, bread, eggs, and the coffee beans you asked me to remember. `.repeat(4) },
  ];
  const withJournal: number[] = [];
  const without: number[] = [];
  try {
    for (let i = 0; i < JOURNAL_TURNS; i++) {
      // Alternate, so both see the same file size and machine noise.
      let start = performance.now();
      const id = `input-${i}`;
      store.journal.accept({ id, session: 'bench', source: 'cli', inputId: id, via: 'input', text: turn(i)[0]!.content, receivedAt: Date.now() });
      store.journal.started(id);
      store.journal.checkpoint(id, turn(i)[1]!.content);
      store.append('bench', turn(i), 'cli', id);
      withJournal.push(performance.now() - start);
      start = performance.now();
      store.append('bench-plain', turn(i), 'cli');
      without.push(performance.now() - start);
    }
  } finally {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return { with: withJournal, without };
}
