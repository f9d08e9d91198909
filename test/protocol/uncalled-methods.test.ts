// Every method the contract declares is called somewhere in the product, through its descriptor — or it is listed
// here as internal, with why. A method nobody calls is either dead (remove it) or reached some other way that a
// reader should know of; a new descriptor without a caller fails this test until one of the two is true.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

const REPO = path.resolve(__dirname, '..', '..', '..');
/** Where the product's callers live: every room but the contract itself (tests and scripts are not callers). */
const CALLER_ROOMS = ['kernel', 'plugin-host', 'plugins', 'protocol/runtime'];

/**
 * Methods no product code calls through their descriptor, each with how it is reached instead. Keyed by the
 * descriptor's name in protocol/ (`Export` or `Export.Key`).
 */
const INTERNAL: Readonly<Record<string, string>> = {
  EventUnsubscribeRequest:
    'the SDK method for a package that stops listening without restarting; ctx.events has on() alone, so no built-in plugin sends it and a package calls it through ctx.kernel.call',
  MemoryWriteRequest:
    "the SDK method for a package granted memory.write (one that keeps notes for its person); the kernel's own recall writes memory in process, so no built-in plugin calls it",
  'TimerApi.Set':
    "served for a client that sets a timer without the model (a script on the socket, `homectl call timer/set`); the page lists and cancels timers and leaves setting them to the model's timer_set tool",
};

interface Declared {
  /** `Export` or `Export.Key`, as code names it. */
  name: string;
  /** Its wire name. */
  method: string;
}

/** Every descriptor the contract exports, alone or in a table (`SocketApi.X`), read from the compiled contract. */
function declaredMethods(): Declared[] {
  const dir = path.join(REPO, 'dist', 'protocol');
  const found: Declared[] = [];
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .sort()) {
    const exported = require(path.join(dir, file)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(exported)) {
      if (isDescriptor(value)) found.push({ name, method: value.method });
      else if (isTable(value))
        for (const [key, entry] of Object.entries(value)) if (isDescriptor(entry)) found.push({ name: `${name}.${key}`, method: entry.method });
    }
  }
  return dedupe(found);
}

function isDescriptor(value: unknown): value is { method: string } {
  const v = value as { kind?: unknown; method?: unknown } | null;
  return typeof v === 'object' && v !== null && (v.kind === 'request' || v.kind === 'notification') && typeof v.method === 'string';
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).some(isDescriptor);
}

/** protocol/index re-exports: one entry per name. */
function dedupe(found: Declared[]): Declared[] {
  return [...new Map(found.map((d) => [d.name, d])).values()];
}

/** The product's TypeScript sources, as text. */
function callerSources(): string[] {
  const texts: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) texts.push(fs.readFileSync(full, 'utf8'));
    }
  };
  for (const room of CALLER_ROOMS) walk(path.join(REPO, room));
  return texts;
}

/**
 * Names of descriptors passed where a call is made: the first argument of `call(`, `notify(`, `callPlugin(`, or of
 * the wire's `sendRequest(requestType(` / `sendNotification(notificationType(` (serving with onRequest is not
 * calling). A first argument that picks between descriptors (`cond ? A : B`) names each.
 */
function calledNames(sources: string[]): Set<string> {
  const patterns = [
    /\b(?:call|notify|callPlugin|callClient)\(\s*([^,()]+?)\s*[,)]/g,
    /\bsend(?:Request|Notification)\(\s*(?:requestType|notificationType)\(\s*([^,()]+?)\s*\)/g,
  ];
  const names = new Set<string>();
  for (const text of sources) {
    for (const pattern of patterns) {
      for (const match of text.matchAll(pattern))
        for (const name of (match[1] as string).matchAll(/\b[A-Z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)?/g)) names.add(name[0]);
    }
  }
  return names;
}

test('every declared method is called through its descriptor somewhere, or is listed as internal with why', () => {
  const declared = declaredMethods();
  assert.ok(declared.length >= 70, `found ${declared.length} descriptors`);
  const called = calledNames(callerSources());
  const uncalled = declared
    .filter((d) => !called.has(d.name))
    .map((d) => d.name)
    .sort();
  const listed = Object.keys(INTERNAL).sort();
  assert.deepEqual(
    uncalled,
    listed,
    `methods without a caller: ${uncalled.filter((n) => !(n in INTERNAL)).join(', ') || 'none new'}; listed but now called (drop from INTERNAL): ${listed.filter((n) => !uncalled.includes(n)).join(', ') || 'none'}`,
  );
  for (const [name, why] of Object.entries(INTERNAL)) assert.ok(why.length > 20, `${name} says why it has no caller`);
});

test('the scan sees a call through a descriptor and ignores a handler bound to one', () => {
  const seen = calledNames([
    'await ctx.kernel.call(MemorySearchRequest, { query });',
    "ctx.call(SocketApi.ConfigGet, { key: 'x' })",
    'void this.connection.sendNotification(notificationType(LogNotification), line);',
    'connection.onRequest(requestType(PingRequest), (p) => p);',
    'bindRequest(connection, caller, ConfigSetRequest, handler);',
    "await ctx.call(action === 'enable' ? SkillsApi.Enable : SkillsApi.Disable, { name });",
  ]);
  assert.deepEqual([...seen].sort(), ['LogNotification', 'MemorySearchRequest', 'SkillsApi.Disable', 'SkillsApi.Enable', 'SocketApi.ConfigGet']);
});
