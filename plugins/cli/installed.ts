// Where clients look when nothing names a data dir: the installed service's (homed install-service), else the
// same default as homed itself (data/ beside the package), whatever folder the client runs in.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SERVICE_DATA_DIR, SERVICE_UNIT_PATH, dataDirOfUnit } from '../../protocol/service';

/** homed's own default data dir: data/ beside the package (dist/plugins/cli is three levels below it). */
export const PACKAGE_DATA_DIR = resolve(__dirname, '..', '..', '..', 'data');

/** The default data dir and what decided it. */
export interface DefaultDataDir {
  dir: string;
  /** `service` (the installed unit, or its socket) or `default` (beside the package). */
  source: 'service' | 'default';
}

/** The installed service's data dir (its unit's -data, else SERVICE_DATA_DIR when a socket is there), else the package's. */
export function defaultDataDir(
  unitPath: string = SERVICE_UNIT_PATH,
  serviceDir: string = SERVICE_DATA_DIR,
  packageDir: string = PACKAGE_DATA_DIR,
): DefaultDataDir {
  let unit: string | undefined;
  try {
    unit = readFileSync(unitPath, 'utf8');
  } catch {
    // no unit installed
  }
  if (unit !== undefined) return { dir: dataDirOfUnit(unit) ?? serviceDir, source: 'service' };
  if (existsSync(join(serviceDir, 'run', 'homed.sock'))) return { dir: serviceDir, source: 'service' };
  return { dir: packageDir, source: 'default' };
}
