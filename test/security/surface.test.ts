// The whole surface, fuzzed: params generated from every descriptor's JSON Schema and mutated (wrong types, huge
// strings, deep nesting, unknown and prototype-named fields, invalid UTF-8, lone surrogates, extreme numbers, paths
// that lead out of the data dir) go to every SDK method (from a real plugin process holding every permission) and
// every socket method (the kernel's table and every client method a built-in plugin serves) of a real homed, up to
// three at once, for HOMEAGENT_FUZZ_SECONDS (40 by default). Every call must be answered with a result or an error of the catalogue
// with a message (HA_ERR_INTERNAL, an unknown code or no answer fails it), no plugin may crash, and afterwards
// homed and every plugin are ready and nothing outside the data dir (its HOME, TMPDIR, working folder, planted
// canaries) was touched or read into the data dir. Calls whose success would legitimately stop something are turned
// aside as surface-sandbox.ts says. Seeded: a failure names its seed (HOMEAGENT_FUZZ_SEED generates the same calls;
// `random` draws a new one) and its call.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { ErrorCodes, ErrorNames, SOCKET_CANCEL_METHOD, SocketApi, type JsonSchema, type PluginStatus, type RequestDescriptor } from '../../protocol';
import { startFakeLlm, type FakeLlm } from '../fake-llm/server';
import { callOnce } from '../../plugins/cli/client';
import { adminSocketBeside } from '../harness/approvals';
import { fakeProviderEnv, makeTempDir, startHomed, waitFor, type HomedHandle } from '../harness/homed';
import { arbitraryFromSchema, type Hints } from './surface-arbitrary';
import { diffSnapshots, findCanaryBytes, plantCanaries, snapshotOutside, type Canaries } from './surface-canaries';
import { ANY_KIND, applyMutation, DeepValue, encodeLine, mutationArbitrary, type Mutation } from './surface-mutate';
import { sandboxParams, type SandboxWorld } from './surface-sandbox';
import { SurfaceSocket, type SocketOutcome } from './surface-socket';
import { listSdkTargets, listServedMethods, listSocketTargets, STREAMING_METHODS, WAITS_FOR_A_PERSON, type Target } from './surface-targets';

/** Seconds of calls; `npm test` runs the default, a longer hunt sets HOMEAGENT_FUZZ_SECONDS. */
const FUZZ_SECONDS = Number(process.env['HOMEAGENT_FUZZ_SECONDS'] ?? 40);
/**
 * The seed: fixed by default, so `npm test` runs the same calls every time and cannot fail by the draw on one run
 * and pass on the next; HOMEAGENT_FUZZ_SEED=random (or a number) explores others, as a longer hunt should.
 */
const SEED = pickSeed(process.env['HOMEAGENT_FUZZ_SEED']);
/** Seconds of raw lines (no JSON, no request, odd envelopes) after the calls. */
const LINE_SECONDS = Math.max(5, Math.round(FUZZ_SECONDS / 4));
/** How long one call may take to be answered: far past any method's own deadline but a turn's, on a loaded box. */
const ANSWER_TIMEOUT_MS = 60_000;
/** How long a streaming method is given to stream or fail before it is cancelled. */
const STREAM_SETTLE_MS = 2_000;
/** The fixture plugin holding every permission that makes the SDK calls. */
const RELAY = 'surface-relay';
/** The fixture plugin that stop, restart, disable and remove are turned onto (surface-sandbox.ts says why). */
const VICTIM = 'good';
/** Most nesting an SDK call gets: a plugin's JSON.stringify overflows its stack near 5,000 levels. */
const SDK_MAX_DEPTH = 2_000;
/** Strings longer than this are made by the relay for an SDK call, HUGE_SDK_FACTOR times as long. */
const HUGE_CHARS = 50_000;
/** Up to 4.4 M characters: past the 4 MiB a wire message may carry, where a client line stops at 1 MiB. */
const HUGE_SDK_FACTOR = 4;
/** Params fields that name a file or folder on homed's machine. */
const PATH_FIELDS = ['path', 'file', 'dir'];
/** Calls in flight at once, each on its own connection. */
const LANES = 3;
/** Kinds of wrong answers after which the run stops (each is shown with its first call). */
const MAX_PROBLEMS = 20;
/** States a plugin may not be found in while the calls run (a crash or a hang). */
const BROKEN_STATES = new Set(['failed', 'backoff', 'unresponsive']);
/** Error codes an answer may carry: the catalogue's, less "internal". */
const CATALOGUE_NAMES: ReadonlyMap<number, string> = new Map(
  Object.entries(ErrorNames)
    .map(([code, name]) => [Number(code), name])
    .filter(([code]) => code !== ErrorCodes.Internal) as [number, string][],
);
/** vscode-jsonrpc's answer to a withdrawn request ($/cancelRequest), for the calls that wait for a person. */
const REQUEST_CANCELLED = -32800;

/** One generated call: what it targets, the params generated from the schema, and how they were mutated. */
interface Call {
  target: Target;
  generated: unknown;
  mutation: Mutation;
}

describe('the whole SDK and socket surface under generated and mutated params', { timeout: (FUZZ_SECONDS + 240) * 1000 }, () => {
  let root: string;
  let homed: HomedHandle | undefined;
  let llm: FakeLlm | undefined;
  let socket: SurfaceSocket;
  let lanes: SurfaceSocket[] = [];
  let canaries: Canaries;
  let world: SandboxWorld;
  let targets: Target[];
  let baseline: Map<string, PluginStatus>;
  let outsideBefore: Map<string, string>;
  const counts = new Map<string, number>();
  /** Calls that named a path outside the data dir and succeeded: the suspects when a canary turns up inside. */
  const outsideSucceeded: string[] = [];
  let outsideCount = 0;
  const namesOutside = (params: unknown): boolean =>
    typeof params === 'object' && params !== null && PATH_FIELDS.some((field) => String((params as Record<string, unknown>)[field]).includes(root));
  const outcomes = new Map<string, number>();

  /** A request on the socket that must succeed (setup and checks, not the calls under test). */
  const ask = async <P, R>(descriptor: RequestDescriptor<P, R>, params: NoInfer<P>): Promise<R> => {
    const { method } = descriptor;
    const outcome = await socket.send((id) => encodeLine({ id, method, params }), ANSWER_TIMEOUT_MS);
    if (outcome.kind !== 'answer' || !('result' in outcome.answer))
      throw new Error(`${method} ${JSON.stringify(params)} failed: ${JSON.stringify(outcome).slice(0, 2000)}`);
    // The server answered this descriptor's method: its result is the descriptor's.
    return outcome.answer['result'] as R;
  };
  const pluginStates = async (): Promise<Map<string, PluginStatus>> => new Map((await ask(SocketApi.PluginsList, {})).plugins.map((p) => [p.name, p]));

  before(async () => {
    root = makeTempDir('surface-');
    const dataDir = path.join(root, 'data');
    fs.mkdirSync(dataDir);
    canaries = plantCanaries(root, dataDir);
    llm = await startFakeLlm();
    llm.setDefault({ text: 'Noted.' });
    homed = await startHomed({
      dataDir,
      plugins: [RELAY, VICTIM],
      cwd: path.join(root, 'cwd'),
      env: { ...fakeProviderEnv(llm), HOME: path.join(root, 'home'), TMPDIR: path.join(root, 'tmp') },
    });
    socket = new SurfaceSocket(homed.socket);
    lanes = Array.from({ length: LANES }, () => new SurfaceSocket(homed?.socket ?? ''));
    // The file tools' roots inside the data dir, and the web page's plugin on, so its client methods are served too;
    // both are the owner's to do, through homectl's admin socket.
    await callOnce(adminSocketBeside(homed.socket), SocketApi.ConfigSet, { scope: 'files', key: 'roots', value: [path.join(dataDir, 'workspace')] });
    await callOnce(adminSocketBeside(homed.socket), SocketApi.PluginsControl, { name: 'webui', action: 'enable' });
    await waitFor(async () => (await pluginStates()).get('webui')?.state === 'ready', { timeoutMs: 60_000, what: 'the webui plugin to be ready' });

    const served = await listServedMethods();
    // A target prints as its name in fast-check's report, not as its whole schema.
    targets = [...listSdkTargets(), ...listSocketTargets(served)].map((target) => Object.assign(target, { [fc.toStringMethod]: () => describeTarget(target) }));
    const settings = (await ask(SocketApi.ConfigList, { all: true })).entries;
    baseline = await pluginStates();
    world = { relay: RELAY, victim: VICTIM, plugins: new Set(baseline.keys()), settings };
    // The served methods read from the definitions are those homed routes (the relay's aside): none is missed.
    const unknown = await socket.send((id) => encodeLine({ id, method: 'surface/no-such-method', params: {} }), ANSWER_TIMEOUT_MS);
    const refusal = unknown.kind === 'answer' ? String((unknown.answer['error'] as { message?: unknown } | undefined)?.message) : '';
    const routed = (/; plugins serve (.*)$/.exec(refusal)?.[1] ?? '').split(', ').filter((m) => m !== '' && !m.startsWith('relay/'));
    assert.deepEqual(routed.sort(), served.map((s) => s.method).sort(), 'the client methods homed routes are the ones the built-in plugins declare');
    outsideBefore = snapshotOutside(canaries);
  });

  after(async () => {
    socket?.close();
    for (const lane of lanes) lane.close();
    await homed?.cleanup();
    await llm?.close();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  test(`every call is answered with a result or a catalogued error, and no plugin crashes (seed ${SEED})`, async (t) => {
    t.diagnostic(`seed ${SEED} (HOMEAGENT_FUZZ_SEED=${SEED} replays these calls), ${FUZZ_SECONDS} s of calls (HOMEAGENT_FUZZ_SECONDS)`);
    const hints = makeHints(canaries, world);
    const callArbitrary: fc.Arbitrary<Call> = fc
      .constantFrom(...targets)
      .chain((target) => fc.record({ target: fc.constant(target), generated: arbitraryFromSchema(target.params, hints), mutation: mutationArbitrary() }));
    let ran = 0;
    // Each kind of wrong answer is kept with the first call that got it, and the calls go on (one run shows every
    // defect it meets); a plugin that broke ends the run at once, since what follows would not be its fault.
    const problems = new Map<string, string>();
    // Up to LANES calls at once, each on a connection of its own (an overlong line ends only its own connection).
    const property = fc.asyncProperty(fc.array(callArbitrary, { minLength: 1, maxLength: LANES }), async (batch) => {
      const first = ran + 1;
      ran += batch.length;
      const answers = await Promise.all(batch.map((call, i) => makeCall(call, lanes[i] as SurfaceSocket)));
      batch.forEach((call, i) => {
        const problem = answers[i];
        count(counts, `${call.target.via} ${call.target.method}${call.target.notification ? ' (notification)' : ''}`);
        const kind = `${call.target.via} ${call.target.method}: ${problem?.replace(/\d+/g, 'N').slice(0, 60)}`;
        if (problem && !problems.has(kind))
          problems.set(kind, `call ${first + i}${batch.length > 1 ? ` (of ${batch.length} at once)` : ''}: ${describeCall(call)}\n  -> ${problem}`);
      });
      if (problems.size >= MAX_PROBLEMS) throw new Error(`stopped after ${MAX_PROBLEMS} kinds of wrong answers`);
      const broken = await findBrokenPlugins();
      if (broken) throw new Error(`calls ${first}-${ran}, seed ${SEED}:\n${batch.map(describeCall).join('\n')}\n  -> afterwards ${broken}`);
    });
    // First every method once with params generated from its schema, so each is called however slow the box is; then
    // every method that takes a path with each path out of the data dir, the rest of its params generated, so the
    // walls around the data dir are met on every run, not only when the dice fall that way.
    const firstCalls = targets.map((target, i): Call => ({ target, generated: sampleOne(target.params, hints, i), mutation: { kind: 'none' } }));
    const examples = [...firstCalls, ...makePathExamples(targets, canaries, hints)].map((call): [Call[]] => [[call]]);
    await fc.assert(property, {
      examples,
      seed: SEED,
      numRuns: 1_000_000,
      interruptAfterTimeLimit: FUZZ_SECONDS * 1000,
      markInterruptAsFailure: false,
      endOnFailure: true,
      includeErrorInReport: true,
    });
    assert.equal(
      problems.size,
      0,
      `seed ${SEED}: ${problems.size} kinds of calls were not answered with a result or a catalogued error:\n${[...problems.values()].join('\n')}`,
    );
    t.diagnostic(
      `${ran} calls over ${counts.size} of ${targets.length} methods (${targets.filter((x) => x.via === 'sdk').length} SDK, ${targets.filter((x) => x.via === 'socket').length} socket)`,
    );
    t.diagnostic(
      `${outsideCount} calls with a path out of the data dir succeeded (${examples.length - firstCalls.length} such calls made after one call of each method)`,
    );
    t.diagnostic(
      `outcomes: ${[...outcomes]
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
    {
      const missed = targets.map((x) => `${x.via} ${x.method}${x.notification ? ' (notification)' : ''}`).filter((name) => !counts.has(name));
      assert.deepEqual(missed, [], `every method was called at least once (${ran} calls in ${FUZZ_SECONDS} s)`);
    }
  });

  test('every line a client may send is answered: no JSON, no request, odd ids, methods and envelopes', async (t) => {
    const lineSocket = new SurfaceSocket(homed?.socket ?? '');
    t.after(() => lineSocket.close());
    const problems = new Map<string, string>();
    let lines = 0;
    const property = fc.asyncProperty(rawLineArbitrary(), async (text) => {
      lines += 1;
      const { lines: answers, probe } = await lineSocket.sendRaw(
        Buffer.from(`${text.replace(/[\r\n]/g, ' ')}\n`, 'utf8'),
        (id) => encodeLine({ id, method: SocketApi.KernelStatus.method, params: {} }),
        ANSWER_TIMEOUT_MS,
      );
      const wrong = [
        judgeSocket(probe),
        ...answers.map((answer) => ('stream' in answer ? undefined : judgeSocket({ kind: 'answer', answer, streamed: 0 }))),
      ].find((p) => p);
      if (wrong && !problems.has(wrong.replace(/\d+/g, 'N').slice(0, 60)))
        problems.set(wrong.replace(/\d+/g, 'N').slice(0, 60), `line ${JSON.stringify(text).slice(0, 300)}\n  -> ${wrong}`);
    });
    await fc.assert(property, { seed: SEED, numRuns: 100_000, interruptAfterTimeLimit: LINE_SECONDS * 1000, markInterruptAsFailure: false });
    t.diagnostic(`${lines} raw lines in ${LINE_SECONDS} s`);
    assert.equal(problems.size, 0, `seed ${SEED}: lines not answered with a result or a catalogued error:\n${[...problems.values()].join('\n')}`);
  });

  test('afterwards homed and every plugin are ready, and nothing outside the data dir was touched', async () => {
    assert.equal(homed?.proc.exitCode, null, 'homed still runs');
    const states = await pluginStates();
    if (states.has(VICTIM)) {
      // Enabling a disabled plugin is the owner's (homectl's admin socket).
      if (homed) await callOnce(adminSocketBeside(homed.socket), SocketApi.PluginsControl, { name: VICTIM, action: 'enable' });
      await ask(SocketApi.PluginsControl, { name: VICTIM, action: 'start' });
    }
    await waitFor(
      async () => {
        const now = await pluginStates();
        return [...now.values()].every((p) => p.enabled && p.state === 'ready') ? now : undefined;
      },
      { timeoutMs: 60_000, what: 'every plugin to be enabled and ready' },
    );
    const changed = diffSnapshots(outsideBefore, snapshotOutside(canaries));
    assert.deepEqual(changed, [], 'no file or folder outside the data dir was created, changed or removed');
    const copied = findCanaryBytes(homed?.dataDir ?? '', canaries);
    assert.deepEqual(
      copied,
      [],
      `no canary outside the data dir was read into it; calls that named a path outside and succeeded (the first 20 of ${outsideCount}):\n${outsideSucceeded.join('\n')}`,
    );
  });

  /** Makes one call and says what was wrong with how it was answered, if anything. */
  async function makeCall(call: Call, lane: SurfaceSocket): Promise<string | undefined> {
    const { target } = call;
    const params = sandboxParams(target.via, target.method, applyMutation(call.generated, call.mutation), world);
    const seen = { result: false };
    const problem = await sendCall(target, params, lane, seen);
    if (problem === undefined && seen.result && namesOutside(params)) {
      outsideCount += 1;
      if (outsideSucceeded.length < 20) outsideSucceeded.push(describeCall(call));
    }
    return problem;
  }

  /** Sends one call's params and says what was wrong with its answer. */
  async function sendCall(target: Target, params: unknown, lane: SurfaceSocket, seen: Seen): Promise<string | undefined> {
    const withParams = params === undefined ? {} : { params };
    if (target.via === 'sdk') {
      const relayMethod = target.notification ? 'relay/notify' : 'relay/request';
      const withdraw = WAITS_FOR_A_PERSON.get(target.method);
      const relayParams = {
        method: target.method,
        ...(params === undefined ? {} : { params: toRelayValue(params) }),
        ...(withdraw === undefined ? {} : { withdrawAfterMs: withdraw }),
      };
      const outcome = await lane.send((id) => encodeLine({ id, method: relayMethod, params: relayParams }), ANSWER_TIMEOUT_MS);
      if (outcome.kind !== 'answer' || !('result' in outcome.answer)) return judgeSocket(outcome, seen);
      return judgeRelay(target, outcome.answer['result'] as RelayOutcome, seen) ?? (target.notification ? await judgeAlive(lane) : undefined);
    }
    if (target.notification) {
      await lane.notify(encodeLine({ method: target.method, ...withParams }));
      count(outcomes, 'notification');
      return judgeAlive(lane);
    }
    if (STREAMING_METHODS.has(target.method)) {
      const first = await lane.send((id) => encodeLine({ id, method: target.method, ...withParams }), STREAM_SETTLE_MS, { untilStream: true });
      if (first.kind === 'closed' || (first.kind === 'answer' && !first.answer['stream'])) return judgeSocket(first, seen);
      const id = first.kind === 'answer' ? String(first.answer['id']) : first.id;
      return judgeSocket(await lane.cancel(id, encodeLine({ method: SOCKET_CANCEL_METHOD, params: { id } }), ANSWER_TIMEOUT_MS), seen);
    }
    return judgeSocket(await lane.send((id) => encodeLine({ id, method: target.method, ...withParams }), ANSWER_TIMEOUT_MS), seen);
  }

  /** What is wrong with a socket answer: none, a close without the overlong-line farewell, or an uncatalogued error. */
  function judgeSocket(outcome: SocketOutcome, seen: Seen = { result: false }): string | undefined {
    if (outcome.kind === 'silent') return `no answer within ${outcome.afterMs} ms`;
    if (outcome.kind === 'closed') {
      const error = outcome.farewell?.['error'] as { code?: number } | undefined;
      if (error?.code === ErrorCodes.LineTooLong) {
        count(outcomes, 'socket HA_ERR_LINE_TOO_LONG (connection closed)');
        return undefined;
      }
      return `the connection closed without an answer (last line without id: ${JSON.stringify(outcome.farewell)?.slice(0, 500)})`;
    }
    const error = outcome.answer['error'] as { code?: unknown; name?: unknown; message?: unknown } | undefined;
    if (!error) {
      seen.result = true;
      count(outcomes, 'socket result');
      return 'result' in outcome.answer ? undefined : `an answer with neither result nor error: ${JSON.stringify(outcome.answer).slice(0, 500)}`;
    }
    count(outcomes, `socket ${String(error.name)}`);
    return judgeError('the socket', error.code, error.name, error.message);
  }

  /** What is wrong with the relay's report of the kernel's answer to an SDK call. */
  function judgeRelay(target: Target, outcome: RelayOutcome, seen: Seen): string | undefined {
    if (outcome.ok) {
      seen.result = true;
      count(outcomes, 'sdk result');
      return undefined;
    }
    if (outcome.code === REQUEST_CANCELLED && WAITS_FOR_A_PERSON.has(target.method)) {
      count(outcomes, 'sdk withdrawn');
      return undefined;
    }
    count(outcomes, `sdk ${String(outcome.name ?? outcome.code)}`);
    return judgeError('the kernel', outcome.code, outcome.name ?? (typeof outcome.code === 'number' ? ErrorNames[outcome.code] : undefined), outcome.message);
  }

  /** Homed still answers after a notification (which has no answer of its own). */
  async function judgeAlive(lane: SurfaceSocket): Promise<string | undefined> {
    let outcome = await lane.send((id) => encodeLine({ id, method: SocketApi.KernelStatus.method, params: {} }), ANSWER_TIMEOUT_MS);
    // An overlong notification ends its connection, with a farewell line saying so: ask again on a new one.
    if (outcome.kind === 'closed' && judgeSocket(outcome) === undefined) {
      outcome = await lane.send((id) => encodeLine({ id, method: SocketApi.KernelStatus.method, params: {} }), ANSWER_TIMEOUT_MS);
    }
    return outcome.kind === 'answer' && 'result' in outcome.answer ? undefined : `kernel/status right after it: ${JSON.stringify(outcome).slice(0, 500)}`;
  }

  /** A plugin (other than the victim) that crashed, restarted or hangs since the calls began, or homed gone. */
  async function findBrokenPlugins(): Promise<string | undefined> {
    if (homed?.proc.exitCode !== null) return `homed exited with code ${homed?.proc.exitCode}`;
    const now = await pluginStates();
    for (const [name, was] of baseline) {
      if (name === VICTIM) continue;
      const is = now.get(name);
      if (!is) return `plugin ${name} is gone`;
      if (BROKEN_STATES.has(is.state) || is.restarts !== was.restarts) {
        return `plugin ${name} is ${is.state} after ${is.restarts} restarts (was ${was.restarts}); last exit ${JSON.stringify(is.last_exit)}`;
      }
    }
    return undefined;
  }
});

/** Whether a call was answered with a result (not an error). */
interface Seen {
  result: boolean;
}

/** How the relay fixture reports the kernel's answer. */
interface RelayOutcome {
  ok: boolean;
  code?: number;
  name?: string;
  message?: string;
}

/** What is wrong with an error: an unknown or internal code, a name that is not its code's, no message. */
function judgeError(who: string, code: unknown, name: unknown, message: unknown): string | undefined {
  const expected = typeof code === 'number' ? CATALOGUE_NAMES.get(code) : undefined;
  if (expected === undefined) return `${who} answered with code ${String(code)} (${String(name)}), not one of the catalogue: ${String(message).slice(0, 1000)}`;
  if (name !== expected) return `${who} answered with code ${String(code)} named ${String(name)}, not ${expected}: ${String(message).slice(0, 1000)}`;
  if (typeof message !== 'string' || message.trim() === '' || message.includes('[object Object]'))
    return `${who} answered ${expected} without a readable message: ${JSON.stringify(message)}`;
  return undefined;
}

/** Strings to favour: the canaries' paths, real plugin names, scopes and setting keys, a few sessions. */
function makeHints(canaries: Canaries, world: SandboxWorld): Hints {
  const plugins = [...world.plugins, 'no-such-plugin', 'core'];
  const keys = [...new Set(world.settings.map((s) => s.key))];
  const sessions = ['cli:surface', 'webui:surface', 'timer:surface', '_consolidation_', 'surface'];
  const paths = fc.constantFrom(...canaries.paths);
  // Text that type parsers (int, float, duration, size, bool, json, dates) read: edges, overflows, near misses.
  const parsable = fc.constantFrom(
    '0',
    '-0',
    '-1',
    '1e999',
    '-1e999',
    'NaN',
    'Infinity',
    '9007199254740993',
    '0x10',
    '1_000',
    ' 5 ',
    '',
    'true',
    'yes',
    'null',
    '{}',
    '[]',
    '{"__proto__":{"x":1}}',
    '[[[[[[[[]]]]]]]]',
    '1s',
    '0s',
    '-5m',
    '1e309s',
    '99999999999999999999d',
    '1h30m',
    '1.5h',
    '10ms',
    '2w',
    '8MiB',
    '1e30GiB',
    '-1KiB',
    '99999999999999999999TB',
    '2026-12-07T05:00:00Z',
    '2026-13-45T25:61:00Z',
    '+275760-09-13T00:00:00.001Z',
    '0000-01-01T00:00:00Z',
    'tomorrow',
    '00:00',
    '24:00',
  );
  return {
    anyString: paths,
    byName: {
      path: paths,
      file: paths,
      dir: paths,
      name: fc.oneof(fc.constantFrom(...plugins), paths),
      scope: fc.constantFrom(...plugins),
      key: fc.constantFrom(...keys),
      session: fc.constantFrom(...sessions),
      value: parsable,
      delay: parsable,
      repeat: parsable,
      at: parsable,
      since: parsable,
      method: fc.constantFrom(...Object.values(SocketApi).map((d) => d.method), 'relay/request', 'timer/set', 'skills/install', 'webui/open', 'no/such'),
    },
  };
}

/**
 * Params as the relay takes them: deep nesting and huge strings named, for the relay to make (a client line may
 * not carry them, a plugin may send them). Nesting is kept to what a plugin's own JSON.stringify can write.
 */
function toRelayValue(value: unknown): unknown {
  if (value instanceof DeepValue) return { $deep: { depth: Math.min(value.depth, SDK_MAX_DEPTH), shape: value.shape } };
  if (typeof value === 'string' && value.length > HUGE_CHARS) return { $huge: { unit: value.slice(0, 4), length: value.length * HUGE_SDK_FACTOR } };
  if (Array.isArray(value)) return value.map(toRelayValue);
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value))
    Object.defineProperty(copy, key, { value: toRelayValue(child), enumerable: true, writable: true, configurable: true });
  return copy;
}

/** One value for `schema`, drawn from the run's seed (and `salt`, to differ between calls). */
function sampleOne(schema: JsonSchema, hints: Hints, salt: number, name = ''): unknown {
  return fc.sample(arbitraryFromSchema(schema, hints, name), { numRuns: 1, seed: SEED + salt })[0];
}

/** Lines a broken or hostile client writes: any text, any JSON, and requests with odd ids, methods and params. */
function rawLineArbitrary(): fc.Arbitrary<string> {
  const methods = fc.constantFrom(
    ...Object.values(SocketApi).map((d) => d.method),
    SOCKET_CANCEL_METHOD,
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    '',
    'timer/set',
    'relay/request',
    'client/call',
    'plugin/shutdown',
  );
  const envelope = fc.record(
    {
      id: fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), ANY_KIND),
      method: fc.oneof(methods, fc.string({ maxLength: 20 }), ANY_KIND),
      params: fc.oneof(ANY_KIND, fc.jsonValue({ maxDepth: 3 })),
      extra: ANY_KIND,
    },
    { requiredKeys: [] },
  );
  return fc.oneof(
    { arbitrary: envelope.map((e) => JSON.stringify(e)), weight: 4 },
    { arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)), weight: 1 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 120 }), weight: 1 },
    {
      arbitrary: fc.constantFrom(
        '',
        ' ',
        '{',
        '}',
        '[]',
        'null',
        '"kernel/status"',
        '{}',
        '\uFEFF{"id":1,"method":"kernel/status"}',
        '{"id":1,"method":"kernel/status"} trailing',
        '{"id":1,"id":2,"method":"kernel/status"}',
        '{"id":1e400,"method":"kernel/status"}',
        '{"id":1.5,"method":"kernel/status"}',
        '{"id":"x","method":"kernel/status","params":{"__proto__":{"polluted":1}}}',
        '{"id":"y","method":"config/get","params":{"key":"core.log.level","constructor":{"prototype":{"x":1}}}}',
        '{"method":"chat/interrupt","params":{"session":"cli:surface"}}',
        '{"id":"z","method":"$/cancel","params":{"id":"nothing-running"}}',
      ),
      weight: 1,
    },
  );
}

/** A call of each path-taking method with each canary path, its other required params generated (seeded). */
function makePathExamples(targets: readonly Target[], canaries: Canaries, hints: Hints): Call[] {
  const calls: Call[] = [];
  for (const target of targets) {
    const properties = (target.params['properties'] ?? {}) as Record<string, JsonSchema>;
    const field = PATH_FIELDS.find((name) => name in properties);
    if (field === undefined) continue;
    const required = ((target.params['required'] ?? []) as string[]).filter((name) => name !== field && properties[name]);
    for (const [i, where] of canaries.paths.entries()) {
      const generated: Record<string, unknown> = { [field]: where };
      for (const name of required) generated[name] = sampleOne(properties[name] as JsonSchema, hints, i, name);
      calls.push({ target, generated, mutation: { kind: 'none' } });
    }
  }
  return calls;
}

function describeTarget(target: Target): string {
  return `${target.via} ${target.notification ? 'notification' : 'request'} ${target.method}`;
}

function count(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** The call as a line of text, huge strings and deep nesting summarized. */
function describeCall(call: Call): string {
  const params = applyMutation(call.generated, call.mutation);
  const shown = JSON.stringify(params, (_key, value: unknown) => {
    if (value instanceof DeepValue) return `<${value.shape} nested ${value.depth} deep>`;
    if (typeof value === 'string' && value.length > 200) return `<${value.length} characters: ${JSON.stringify(value.slice(0, 40))}…>`;
    return value;
  });
  return `${describeTarget(call.target)} params ${shown ?? '(none)'} (mutation ${JSON.stringify(call.mutation)})`;
}

function pickSeed(setting: string | undefined): number {
  if (setting === 'random') return Math.floor(Math.random() * 2 ** 31);
  if (setting !== undefined && /^\d+$/.test(setting)) return Number(setting);
  return 20_211_207;
}
