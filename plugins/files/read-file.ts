// read_file: a text file with line numbers, a window of it when it is long; a binary one is refused, naming its type.
import * as fs from 'node:fs';
import type { ToolDefinition } from '../../plugin-host';
import { closePlace } from '../../plugin-host/tracker';
import { openRegularFile } from './open-file';
import { binaryType, readHead } from './sniff';
import type { Workspace } from './workspace';

/** Knobs of read_file. */
export const READ_POLICY = { defaultLimit: 2000, maxLineChars: 2000, maxFileBytes: 10 * 1024 * 1024 };

interface ReadArgs {
  path: string;
  offset?: number;
  limit?: number;
}

/** The read_file tool. */
export function createReadFile(workspace: () => Workspace): ToolDefinition<ReadArgs> {
  return {
    description:
      'Read a text file inside the allowed folders. Lines come numbered ("12\\tline"); offset is the first line (1-based) and limit how many lines ' +
      `(default ${READ_POLICY.defaultLimit}). Binary files are refused. Relative paths start at the first allowed folder.`,
    parameters: {
      type: 'object',
      required: ['path'],
      additionalProperties: false,
      properties: {
        path: { type: 'string', minLength: 1, maxLength: 4096 },
        offset: { type: 'integer', minimum: 1 },
        limit: { type: 'integer', minimum: 1, maximum: 100000 },
      },
    },
    run: async (args) => {
      const place = await workspace().locate(args.path);
      try {
        const { fd, stat } = openRegularFile(place, args.path, { maxBytes: READ_POLICY.maxFileBytes, tool: 'read_file' });
        try {
          const type = binaryType(readHead(fd));
          if (type) throw new Error(`${args.path} is a ${type} of ${stat.size} bytes, not text; read_file only reads text`);
          return numberLines(args.path, fs.readFileSync(fd, 'utf8'), args.offset ?? 1, args.limit ?? READ_POLICY.defaultLimit);
        } finally {
          fs.closeSync(fd);
        }
      } finally {
        closePlace(place);
      }
    },
  };
}

/** The window of lines [offset, offset + limit) with their numbers. */
export function numberLines(name: string, text: string, offset: number, limit: number): Record<string, unknown> {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const total = text.length === 0 ? 0 : lines.length;
  const window = lines.slice(offset - 1, offset - 1 + limit);
  const cut = (line: string): string => (line.length > READ_POLICY.maxLineChars ? `${line.slice(0, READ_POLICY.maxLineChars)}… [line cut]` : line);
  const content = window.map((line, i) => `${offset + i}\t${cut(line)}`).join('\n');
  const result: Record<string, unknown> = { path: name, total_lines: total, content };
  if (window.length > 0) result['lines'] = `${offset}-${offset + window.length - 1}`;
  if (offset - 1 + window.length < total) result['more'] = `the file goes on to line ${total}; read again with offset ${offset + window.length}`;
  return result;
}
