import { findSetpriv } from '../supervisor/spawn';
import type { PluginSupervisor } from '../supervisor/plugin-supervisor';

/** The process walls around a plugin as they are, for `homectl plugins info`; a wall not in force says so. */
export function describeSandbox(plugin: PluginSupervisor): { wall: string; active: boolean; note: string }[] {
  const setpriv = findSetpriv();
  const trusted = plugin.record.kind === 'builtin';
  return [
    { wall: 'own-process', active: true, note: 'runs in its own supervised child process' },
    { wall: 'own-process-group', active: true, note: 'its own process group; stopped and killed as a tree' },
    {
      wall: 'dies-with-kernel',
      active: setpriv !== null,
      note: setpriv ? `parent-death signal SIGKILL set by ${setpriv}` : 'setpriv (util-linux) not found: the host exits when its wire closes, but a hung host outlives a killed kernel',
    },
    { wall: 'allow-listed-env', active: true, note: 'sees only PATH, locale, TZ, TMPDIR, HOME, USER: no NODE_OPTIONS, no kernel secrets' },
    { wall: 'memory-cap', active: true, note: 'RSS watched with pidusage; killed over its limit' },
    {
      wall: 'node-permission-model',
      active: false,
      note: trusted ? 'not applied: built-in plugins are trusted' : 'not applied yet in this version: the plugin has the file system access of the homed user',
    },
    {
      wall: 'own-uid-and-network',
      active: false,
      note: trusted ? 'not applied: built-in plugins are trusted' : 'not applied yet in this version',
    },
  ];
}
