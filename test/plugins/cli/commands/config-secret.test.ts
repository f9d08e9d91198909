// `homectl config set KEY` without a value: an API key read from stdin or typed at a prompt that does not echo it,
// so it never sits on a command line (ps, shell history). Checked through a real homed: the provider receives it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startFakeLlmFor, type FakeLlm } from '../../../fake-llm/server';
import { HOMECTL_MAIN, runHomectl, startHomed, type HomedHandle } from '../../../harness/homed';
import { TmuxPane, tmuxAvailable } from '../../../harness/tmux';
import { runWaiter } from '../../../harness/waiter';

/** Points the default provider at the fake LLM under the name `piped`, its key left to the test. */
async function useProvider(homed: HomedHandle, llm: FakeLlm): Promise<void> {
  for (const [key, value] of [
    ['llm.provider.piped.adapter', 'openai'],
    ['llm.provider.piped.base_url', llm.baseUrl('openai')],
    ['llm.provider.piped.model', 'fake-model'],
    ['llm.default', 'piped'],
  ] as const) {
    const set = await runHomectl(['config', 'set', key, value], { socket: homed.socket });
    assert.equal(set.code, 0, set.stderr);
  }
}

/** The Authorization header of the provider's last request, after one message. */
async function keySent(homed: HomedHandle, llm: FakeLlm): Promise<string | undefined> {
  llm.enqueue({ text: 'ok' });
  const said = await runWaiter(['--socket', homed.socket, '-say', 'hello']);
  assert.equal(said.code, 0, said.stderr);
  return llm.requests.at(-1)?.headers['authorization'] as string | undefined;
}

describe('homectl config set without a value', () => {
  it('reads the value from stdin, sets it, shows it masked, and the provider gets it', async (t) => {
    const llm = await startFakeLlmFor(t);
    const homed = await startHomed();
    t.after(() => homed.cleanup());
    await useProvider(homed, llm);
    const set = await runHomectl(['config', 'set', 'llm.provider.piped.api_key'], { socket: homed.socket, input: 'sk-from-stdin\n' });
    assert.equal(set.code, 0, set.stderr);
    assert.equal(set.stdout, 'llm.provider.piped.api_key = ********\n');
    assert.equal(await keySent(homed, llm), 'Bearer sk-from-stdin');
    const dash = await runHomectl(['config', 'set', 'llm.provider.piped.api_key', '-'], { socket: homed.socket, input: 'sk-dash' });
    assert.equal(dash.code, 0, dash.stderr);
    assert.equal(await keySent(homed, llm), 'Bearer sk-dash');
  });

  it('refuses an empty stdin, naming both ways to give the value, and changes nothing', async (t) => {
    const homed = await startHomed();
    t.after(() => homed.cleanup());
    const set = await runHomectl(['config', 'set', 'llm.provider.piped.api_key'], { socket: homed.socket, input: '' });
    assert.equal(set.code, 2);
    assert.match(set.stderr, /no value for llm\.provider\.piped\.api_key: type it at the prompt, or pipe it in/);
    const got = await runHomectl(['config', 'get', 'llm.provider.piped.api_key', '--json'], { socket: homed.socket });
    assert.equal((JSON.parse(got.stdout) as { isSet: boolean }).isSet, false);
  });

  it('asks on a terminal without echoing what is typed', { skip: tmuxAvailable() ? false : 'tmux is not installed (CI installs it)' }, async (t) => {
    const llm = await startFakeLlmFor(t);
    const homed = await startHomed();
    t.after(() => homed.cleanup());
    await useProvider(homed, llm);
    const pane = TmuxPane.start([process.execPath, HOMECTL_MAIN, '--socket', homed.socket, 'config', 'set', 'llm.provider.piped.api_key']);
    t.after(() => pane.close());
    await pane.waitForScreen(/value for llm\.provider\.piped\.api_key \(not shown\):/, 'the prompt');
    pane.type('sk-typedX');
    pane.press('BSpace');
    pane.press('Enter');
    const screen = await pane.waitForScreen(/\[exit 0\]/, 'homectl to finish');
    assert.ok(!screen.includes('sk-typed'), `the key was echoed:\n${screen}`);
    assert.match(screen, /llm\.provider\.piped\.api_key = \*{8}/);
    assert.equal(await keySent(homed, llm), 'Bearer sk-typed');
  });
});
