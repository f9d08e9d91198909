// search_files: lines matching a regular expression under a folder, through ripgrep when it is on PATH (fast, skips
// .gitignored and hidden files, never follows symlinks), else a JS walk doing the same without the ignore files.
// ripgrep reads by name, so it only says where to look: every line returned is read again through descriptors from
// the folder the walk opened, one name at a time without following a link, and a hard-linked file is left out —
// what a swap led ripgrep to read never reaches the answer.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ToolDefinition } from '../../plugin-host';
import { findExecutable } from '../../protocol/runtime/executables';
import { READ_FLAGS, closePlace, isBinary, listFolder, lstatAt, openAt, openFolderAt, type Place } from '../../plugin-host/tracker';
import type { Workspace } from './workspace';

/** Knobs of search_files. */
export const SEARCH_POLICY = { maxMatches: 200, maxLineChars: 300, timeoutMs: 30_000, maxFileBytes: 10 * 1024 * 1024 };

interface SearchArgs {
  pattern: string;
  path?: string;
}

interface Match {
  file: string;
  line: number;
  text: string;
}

/** The search_files tool; `rg` is ripgrep's path, or null for the JS walk. */
export function createSearchFiles(workspace: () => Workspace, rg: string | null = findExecutable('rg')): ToolDefinition<SearchArgs> {
  return {
    description: `Search the text files under a folder (default: the first allowed folder) for a regular expression; gives file, line number and line, at most ${SEARCH_POLICY.maxMatches} matches.`,
    parameters: {
      type: 'object',
      required: ['pattern'],
      additionalProperties: false,
      properties: { pattern: { type: 'string', minLength: 1, maxLength: 1000 }, path: { type: 'string', minLength: 1, maxLength: 4096 } },
    },
    run: async (args, _ctx, call) => {
      const ws = workspace();
      const place = await ws.locate(args.path ?? ((await ws.roots())[0] as string));
      const base = place.path;
      try {
        const found = rg ? recheck(place, await searchWithRipgrep(rg, args.pattern, base, call.signal)) : searchWithJs(compile(args.pattern), place);
        const matches = found.map((m) => ({ ...m, file: m.file || path.basename(base) }));
        const shown = matches.slice(0, SEARCH_POLICY.maxMatches);
        return {
          path: args.path ?? base,
          matches: shown,
          ...(matches.length > SEARCH_POLICY.maxMatches ? { truncated: `more than ${SEARCH_POLICY.maxMatches} matches; narrow the pattern or the path` } : {}),
        };
      } finally {
        closePlace(place);
      }
    },
  };
}

function searchWithRipgrep(rg: string, pattern: string, base: string, signal: AbortSignal): Promise<Match[]> {
  const argv = ['--json', '--max-columns', String(SEARCH_POLICY.maxLineChars), '--max-filesize', String(SEARCH_POLICY.maxFileBytes), '-e', pattern, '--', base];
  return new Promise((resolve, reject) => {
    const child = spawn(rg, argv, { stdio: ['ignore', 'pipe', 'pipe'], signal, timeout: SEARCH_POLICY.timeoutMs });
    const matches: Match[] = [];
    let rest = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) takeRipgrepLine(line, matches);
      if (matches.length > SEARCH_POLICY.maxMatches) child.kill('SIGTERM');
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk.slice(0, 2000)));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 2 && matches.length === 0)
        reject(new Error(`search_files could not search for ${JSON.stringify(pattern)}: ${stderr.trim() || 'ripgrep failed'}`));
      else resolve(matches);
    });
  });
}

function takeRipgrepLine(line: string, matches: Match[]): void {
  if (!line.startsWith('{"type":"match"')) return;
  const event = JSON.parse(line) as { data: { path: { text?: string }; line_number: number; lines: { text?: string } } };
  const text = (event.data.lines.text ?? '').replace(/\r?\n$/, '');
  matches.push({ file: event.data.path.text ?? '', line: event.data.line_number, text });
}

function compile(pattern: string): RegExp {
  try {
    return new RegExp(pattern);
  } catch (error) {
    throw new Error(`search_files: ${JSON.stringify(pattern)} is not a valid regular expression (${(error as Error).message})`);
  }
}

/** Each match ripgrep named, its line read again through the walk (paths relative to the base); the rest dropped. */
function recheck(place: Place, matches: Match[]): Match[] {
  const texts = new Map<string, string[] | null>();
  const kept: Match[] = [];
  for (const match of matches) {
    if (match.file === '') continue;
    const rel = path.relative(place.path, match.file);
    if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
    if (!texts.has(rel)) texts.set(rel, linesBelow(place, rel));
    const line = texts.get(rel)?.[match.line - 1];
    if (line !== undefined) kept.push({ file: rel, line: match.line, text: line.slice(0, SEARCH_POLICY.maxLineChars) });
  }
  return kept;
}

/** The lines of the text file `rel` below the place (its base itself when empty), or null when it may not be read. */
function linesBelow(place: Place, rel: string): string[] | null {
  const names = rel === '' ? [] : rel.split(path.sep);
  if (names.length === 0) return linesOf(place.dir, place.name);
  let dir: number;
  try {
    dir = openFolderAt(place.dir, place.name);
  } catch {
    return null;
  }
  try {
    for (const name of names.slice(0, -1)) {
      const next = openFolderAt(dir, name);
      fs.closeSync(dir);
      dir = next;
    }
    return linesOf(dir, names[names.length - 1] as string);
  } catch {
    return null;
  } finally {
    fs.closeSync(dir);
  }
}

/** The lines of a regular, singly linked, not too big text file `name` in the folder open on `dir`; else null. */
function linesOf(dir: number, name: string): string[] | null {
  let fd: number;
  try {
    fd = openAt({ dir, name }, READ_FLAGS);
  } catch {
    return null;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.nlink > 1 || stat.size > SEARCH_POLICY.maxFileBytes) return null;
    const bytes = fs.readFileSync(fd);
    return isBinary(bytes) ? null : bytes.toString('utf8').split('\n');
  } finally {
    fs.closeSync(fd);
  }
}

/** The same search without ripgrep: a walk through descriptors that skips symlinks, hidden entries, hard-linked files, binaries and big files. */
export function searchWithJs(regex: RegExp, place: Place): Match[] {
  const matches: Match[] = [];
  const searchFile = (dir: number, name: string, rel: string): void => {
    (linesOf(dir, name) ?? []).forEach((text, i) => {
      if (matches.length <= SEARCH_POLICY.maxMatches && regex.test(text))
        matches.push({ file: rel, line: i + 1, text: text.slice(0, SEARCH_POLICY.maxLineChars) });
    });
  };
  const searchFolder = (dir: number, rel: string): void => {
    for (const name of listFolder(dir).sort()) {
      if (matches.length > SEARCH_POLICY.maxMatches) return;
      if (name.startsWith('.')) continue;
      const child = rel === '' ? name : `${rel}/${name}`;
      const stat = lstatAt({ dir, name });
      if (stat?.isFile()) searchFile(dir, name, child);
      else if (stat?.isDirectory()) withFolder(dir, name, (sub) => searchFolder(sub, child));
    }
  };
  if (lstatAt(place)?.isDirectory()) withFolder(place.dir, place.name, (dir) => searchFolder(dir, ''));
  else searchFile(place.dir, place.name, '');
  return matches;
}

/** Runs `use` on folder `name` of `dir`, open; a folder replaced meanwhile (by a link, say) is skipped. */
function withFolder(dir: number, name: string, use: (fd: number) => void): void {
  let fd: number;
  try {
    fd = openFolderAt(dir, name);
  } catch {
    return;
  }
  try {
    use(fd);
  } finally {
    fs.closeSync(fd);
  }
}
