// The version of the HomeAgent package homectl belongs to (dist/plugins/cli/backup is four levels below its root).
import * as fs from 'node:fs';
import * as path from 'node:path';

/** HomeAgent's version from its package.json, or `unknown` when it cannot be read. */
export function readPackageVersion(): string {
  try {
    const file = path.resolve(__dirname, '..', '..', '..', '..', 'package.json');
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
