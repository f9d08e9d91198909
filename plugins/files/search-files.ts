// search_files: lines matching a regular expression under a folder, through ripgrep when it is on PATH (fast, skips
// .gitignored and hidden files, never follows symlinks), else a JS walk doing the same without the ignore files.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ToolDefinition } from '../../plugin-host';
import { findExecutable } from '../../plugin-host/executables';
import { isBinary } from '../../plugin-host/tracker';
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
    description:
      `Search the text files under a folder (default: the first allowed folder) for a regular expression; gives file, line number and line, at most ${SEARCH_POLICY.maxMatches} matches.`,
    parameters: {
      type: 'object',
      required: ['pattern'],
      additionalProperties: false,
      properties: { pattern: { type: 'string', minLength: 1, maxLength: 1000 }, path: { type: 'string', minLength: 1, maxLength: 4096 } },
    },
    run: async (args, _ctx, call) => {
      const ws = workspace();
      const base = args.path === undefined ? ((await ws.roots())[0] as string) : await ws.resolve(args.path);
      const matches = rg ? await searchWithRipgrep(rg, args.pattern, base, call.signal) : searchWithJs(compile(args.pattern), base);
      const shown = matches.slice(0, SEARCH_POLICY.maxMatches).map((m) => ({ ...m, file: path.relative(base, m.file) || path.basename(m.file) }));
      return { path: args.path ?? base, matches: shown, ...(matches.length > SEARCH_POLICY.maxMatches ? { truncated: `more than ${SEARCH_POLICY.maxMatches} matches; narrow the pattern or the path` } : {}) };
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
      if (code === 2 && matches.length === 0) reject(new Error(`search_files could not search for ${JSON.stringify(pattern)}: ${stderr.trim() || 'ripgrep failed'}`));
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

/** The same search without ripgrep: a walk that skips symlinks, hidden entries, binaries and big files. */
export function searchWithJs(regex: RegExp, base: string): Match[] {
  const matches: Match[] = [];
  const pending = [base];
  while (pending.length > 0 && matches.length <= SEARCH_POLICY.maxMatches) {
    const current = pending.pop() as string;
    const stat = fs.lstatSync(current);
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(current).sort().reverse()) if (!name.startsWith('.')) pending.push(path.join(current, name));
      continue;
    }
    if (!stat.isFile() || stat.size > SEARCH_POLICY.maxFileBytes) continue;
    const bytes = fs.readFileSync(current);
    if (isBinary(bytes)) continue;
    bytes
      .toString('utf8')
      .split('\n')
      .forEach((text, i) => {
        if (regex.test(text)) matches.push({ file: current, line: i + 1, text: text.slice(0, SEARCH_POLICY.maxLineChars) });
      });
  }
  return matches;
}
