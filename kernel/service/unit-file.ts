// The unit file: scripts/homed.service with its @…@ fields filled in.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SERVICE_FILE_MARK } from '../../protocol';
import { ServiceSetupError } from './run';

/** The template, shipped with the package. */
export const UNIT_TEMPLATE = path.resolve(__dirname, '..', '..', '..', 'scripts', 'homed.service');

/** What fills the template. */
export interface UnitFields {
  /** node's absolute path. */
  node: string;
  /** The package root (holds dist/). */
  packageRoot: string;
  dataDir: string;
  user: string;
  /** The user's primary group: the socket's group. */
  group: string;
}

// systemd splits ExecStart= on spaces and expands % and $; such paths would need quoting that is easy to get wrong.
const UNSAFE = /[\s"'\\%$;`]/;

/** Refuses a field systemd would read differently (split, expanded) or a path that is not absolute. */
export function checkUnitFields(fields: Partial<UnitFields>): void {
  for (const [name, value] of Object.entries(fields)) {
    if (UNSAFE.test(value))
      throw new ServiceSetupError(
        `the ${name} "${value}" has a space, quote, backslash, % or $ in it, which a unit file cannot take as it is; use a path without them`,
      );
    if (name !== 'user' && name !== 'group' && !path.isAbsolute(value)) throw new ServiceSetupError(`the ${name} "${value}" must be an absolute path`);
  }
}

/** The unit's text; refuses a field systemd would read differently. */
export function renderUnit(fields: UnitFields, template: string = fs.readFileSync(UNIT_TEMPLATE, 'utf8')): string {
  checkUnitFields(fields);
  const body = template
    .replaceAll('@NODE@', fields.node)
    .replaceAll('@PACKAGE@', fields.packageRoot)
    .replaceAll('@DATA@', fields.dataDir)
    .replaceAll('@USER@', fields.user)
    .replaceAll('@GROUP@', fields.group);
  const left = /@[A-Z]+@/.exec(body);
  if (left) throw new ServiceSetupError(`the unit template ${UNIT_TEMPLATE} has a field install-service does not know: ${left[0]}`);
  return `${SERVICE_FILE_MARK} from ${UNIT_TEMPLATE}; edit with a drop-in (systemctl edit homed), it is rewritten on install\n${body}`;
}

/** Whether the unit file at `file` was written by install-service. */
export function isOurUnit(file: string): boolean {
  try {
    return fs.readFileSync(file, 'utf8').startsWith(SERVICE_FILE_MARK);
  } catch {
    return false;
  }
}

/** The User= of a unit's text. */
export function userOfUnit(text: string): string | null {
  return /^User=(\S+)$/m.exec(text)?.[1] ?? null;
}
