// A plugin played in memory for rung-1 tests: the kernel's PluginChannel on one end of a connectedPair, the
// plugin's own connection on the other, and a state the test sets (as the supervisor would).
import type { TestContext } from 'node:test';
import type { MessageConnection } from 'vscode-jsonrpc';
import type { PluginState } from '../../protocol';
import { PluginChannel } from '../../kernel/supervisor/channel';
import { connectedPair } from './connection-pair';

/** One in-memory plugin: `plugin` answers what `channel` sends; `state` is what the supervisor would report. */
export interface PluginEnd {
  name: string;
  channel: PluginChannel;
  plugin: MessageConnection;
  state: PluginState;
}

/** A ready plugin named `name` whose calls have `deadlineMs` by default; both ends close when the test ends. */
export function pluginEnd(t: TestContext, name: string, deadlineMs = 1_000): PluginEnd {
  const pair = connectedPair();
  t.after(() => pair.close());
  return { name, channel: new PluginChannel(name, pair.a, deadlineMs), plugin: pair.b, state: 'ready' };
}

/** A promise with its resolve at hand, for handlers a test releases when it chooses. */
export function gate<T = void>(): { promise: Promise<T>; open(value: T): void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}
