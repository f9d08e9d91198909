import { planSandbox, trustedWalls, type SandboxWall } from '../supervisor/sandbox';
import { findSetpriv } from '../supervisor/spawn';
import type { PluginSupervisor } from '../supervisor/plugin-supervisor';

/** The process walls around a plugin as they are, for `homectl plugins info`; a wall not in force says so. */
export function describeSandbox(plugin: PluginSupervisor): SandboxWall[] {
  const setpriv = findSetpriv();
  const trusted = plugin.record.kind === 'builtin';
  // The walls its process was started in; before its first start, the walls it would get.
  const walls = trusted ? trustedWalls() : (plugin.sandbox ?? planSandbox(plugin.sandboxInput())).walls;
  return [
    { wall: 'own-process', active: true, note: 'runs in its own supervised child process' },
    { wall: 'own-process-group', active: true, note: 'its own process group; stopped and killed as a tree' },
    {
      wall: 'dies-with-kernel',
      active: setpriv !== null,
      note: setpriv
        ? `parent-death signal SIGKILL set by ${setpriv}`
        : 'setpriv (util-linux) not found: the host exits when its wire closes, but a hung host outlives a killed kernel',
    },
    { wall: 'allow-listed-env', active: true, note: 'sees only PATH, locale, TZ, TMPDIR, HOME, USER: no NODE_OPTIONS, no kernel secrets' },
    { wall: 'memory-cap', active: true, note: 'RSS watched with pidusage; killed over its limit' },
    ...walls,
  ];
}
