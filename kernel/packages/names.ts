import type { InstallLimits } from './limits';

/** A rule a name breaks, and how to say so. */
export interface NameProblem {
  rule: string;
  problem: string;
}

// Characters Windows refuses in names; a package must unpack the same everywhere.
const RESERVED_CHARS = /[<>:"|?*]/;
// C0, DEL and C1 controls, and the invisible or direction-changing characters that make a name lie about itself.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u2069\ufeff]/;
// CON, PRN, AUX, NUL, COM1-9, LPT1-9 (also with an extension, and the superscript digits Windows accepts).
const RESERVED_NAME = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?:\..*)?$/i;

/**
 * What is wrong with an entry name, or undefined: the checks of the path stage, on the decoded name.
 * A folder's name ends with one `/`. Depth is a limit, checked with the sizes (see pathDepth).
 */
export function nameProblem(name: string, limits: Pick<InstallLimits, 'maxNameBytes' | 'maxPathBytes'>): NameProblem | undefined {
  if (name === '' || name === '/') return { rule: 'path.empty', problem: 'its name is empty, so it would land on the plugin folder itself' };
  if (name.includes('\\')) return { rule: 'path.backslash', problem: 'its name contains a backslash, which some systems take as a folder separator' };
  if (name.startsWith('/')) return { rule: 'path.absolute', problem: 'its name is an absolute path' };
  if (/^[A-Za-z]:/.test(name)) return { rule: 'path.drive', problem: 'its name starts with a drive letter' };
  const segments = segmentsOf(name);
  if (segments.includes('..')) return { rule: 'path.traversal', problem: 'its name climbs out of the plugin folder with ".."' };
  if (segments.includes('.')) return { rule: 'path.dot-segment', problem: 'its name has a "." segment, so two spellings name one file' };
  if (segments.includes('')) return { rule: 'path.empty-segment', problem: 'its name has an empty segment ("//")' };
  if (CONTROL.test(name)) return { rule: 'path.control', problem: 'its name contains a control or invisible character' };
  if (name.includes('\uFFFD')) return { rule: 'path.encoding', problem: 'its name is not valid UTF-8' };
  if (RESERVED_CHARS.test(name)) return { rule: 'path.reserved-char', problem: 'its name contains one of < > : " | ? *' };
  if (segments.some((s) => RESERVED_NAME.test(s)))
    return { rule: 'path.reserved-name', problem: 'its name uses a device name Windows reserves (CON, NUL, COM1…)' };
  if (segments.some((s) => s.endsWith('.') || s.endsWith(' '))) {
    return { rule: 'path.trailing-dot-space', problem: 'a segment of its name ends in a dot or a space, which Windows drops' };
  }
  if (name !== name.normalize('NFC'))
    return { rule: 'path.not-nfc', problem: 'its name is not in Unicode NFC form, so it could collide with another spelling' };
  const longest = Math.max(...segments.map((s) => Buffer.byteLength(s)));
  if (longest > limits.maxNameBytes) {
    return { rule: 'path.segment-length', problem: `a segment of its name is ${longest} bytes long, over the limit of ${limits.maxNameBytes}` };
  }
  const bytes = Buffer.byteLength(name);
  if (bytes > limits.maxPathBytes) return { rule: 'path.length', problem: `its name is ${bytes} bytes long, over the limit of ${limits.maxPathBytes}` };
  return undefined;
}

/** How many levels a path has, the file itself included (`a/b/c.js` → 3, `a/` → 1). */
export function pathDepth(name: string): number {
  return segmentsOf(name).length;
}

/** The segments of a name; a folder's trailing `/` is not a segment. */
export function segmentsOf(name: string): string[] {
  return (name.endsWith('/') ? name.slice(0, -1) : name).split('/');
}
