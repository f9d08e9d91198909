// What homed may do beyond its uid: root, or the Linux capabilities a service unit hands a non-root user
// (AmbientCapabilities=). The walls around untrusted plugins ask this instead of "am I root".
import * as fs from 'node:fs';

/** The capabilities the walls and the notifier use, by their bit numbers in /proc/self/status. */
export const CAP = { CHOWN: 0, KILL: 5, SETGID: 6, SETUID: 7, SYS_ADMIN: 21 } as const;
export type CapName = keyof typeof CAP;

/** homed's privilege: root (every capability, uid 0), or a non-root uid with some capabilities. */
export interface Privilege {
  root: boolean;
  /** Effective capabilities (all of them for root). */
  effective: ReadonlySet<CapName>;
  /** Whether homed has ambient capabilities, which every child it starts inherits unless it drops them. */
  ambient: boolean;
}

/** Parses the CapEff/CapAmb lines of /proc/PID/status (hex masks) into the capabilities named in CAP. */
export function parseCapabilities(status: string, uid: number): Privilege {
  const mask = (field: string): bigint => {
    const match = new RegExp(`^${field}:\\s*([0-9a-f]+)$`, 'm').exec(status);
    return match ? BigInt(`0x${match[1]}`) : 0n;
  };
  const named = (bits: bigint): Set<CapName> => new Set((Object.keys(CAP) as CapName[]).filter((name) => (bits >> BigInt(CAP[name])) & 1n));
  return { root: uid === 0, effective: named(mask('CapEff')), ambient: mask('CapAmb') !== 0n };
}

let cached: Privilege | undefined;

/** This process's privilege, read once (it does not change while homed runs). */
export function ownPrivilege(): Privilege {
  if (cached) return cached;
  const uid = typeof process.geteuid === 'function' ? process.geteuid() : -1;
  let status = '';
  try {
    status = fs.readFileSync('/proc/self/status', 'utf8');
  } catch {
    // not Linux: no capabilities to read, and no walls that use them
  }
  cached = parseCapabilities(status, uid);
  return cached;
}

/** Whether homed holds every capability named, root included (as root they are all effective). */
export function holds(privilege: Privilege, ...names: CapName[]): boolean {
  return names.every((name) => privilege.effective.has(name));
}

/** The capabilities named that homed lacks, for a note saying why a wall is down. */
export function missing(privilege: Privilege, ...names: CapName[]): CapName[] {
  return names.filter((name) => !privilege.effective.has(name));
}

/**
 * setpriv arguments that keep homed's ambient capabilities (what the installed service grants it for the walls)
 * from a child: a plugin, and any command it runs, gets no capability.
 */
export function capabilityDropArgs(privilege: Privilege = ownPrivilege()): string[] {
  return privilege.ambient ? ['--inh-caps=-all', '--ambient-caps=-all'] : [];
}
