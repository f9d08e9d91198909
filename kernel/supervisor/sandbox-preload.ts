// Preloaded (node --require) into a sandboxed plugin host, before the host's own code.
// fengari's debug library requires readline-sync at load time, which calls process.binding('tty_wrap'):
// the permission model refuses that, and the host could not start. A plugin has no terminal to prompt
// on anyway, so readline-sync is replaced by a stub that answers `cont` (leave debug.debug()).
import Module from 'node:module';

function stubModule(request: string, exports: unknown): void {
  let file: string;
  try {
    file = require.resolve(request);
  } catch {
    return; // not installed: nothing to stub
  }
  const stub = new Module(file);
  stub.filename = file;
  stub.loaded = true;
  stub.exports = exports;
  require.cache[file] = stub;
}

stubModule('readline-sync', {
  setDefaultOptions: (): void => undefined,
  prompt: (): string => 'cont',
});
