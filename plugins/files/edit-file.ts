// edit_file: replaces one exact, unique piece of a text file. No match shows the nearest lines; several matches show
// where each is, so the next call can give enough context to pick one.
import * as fs from 'node:fs';
import type { ToolCall, ToolDefinition } from '../../plugin-host';
import { closePlace, type Place } from '../../plugin-host/tracker';
import { openRegularFile } from './open-file';
import { READ_POLICY } from './read-file';
import { binaryType, readHead } from './sniff';
import { writeTracked } from './tracked-write';
import type { Workspace } from './workspace';

interface EditArgs {
  path: string;
  old: string;
  new: string;
}

/** The edit_file tool. */
export function createEditFile(workspace: () => Workspace): ToolDefinition<EditArgs> {
  return {
    description:
      'Replace one exact piece of text in a file: `old` must occur exactly once (include surrounding lines to make it unique), and becomes `new`. ' +
      'The answer carries a change id (e.g. "c12") to cite.',
    parameters: {
      type: 'object',
      required: ['path', 'old', 'new'],
      additionalProperties: false,
      properties: { path: { type: 'string', minLength: 1, maxLength: 4096 }, old: { type: 'string', minLength: 1 }, new: { type: 'string' } },
    },
    run: async (args, _ctx, call) => {
      const ws = workspace();
      const place = await ws.locate(args.path);
      try {
        return editAt(ws, place, args, call);
      } finally {
        closePlace(place);
      }
    },
  };
}

/** Replaces the one occurrence of `old` in the file at `place` and records the change. */
function editAt(ws: Workspace, place: Place, args: EditArgs, call: ToolCall): Record<string, unknown> {
  const text = readText(place, args.path);
  const at = occurrences(text, args.old);
  if (at.length === 0) throw new Error(`edit_file: the text to replace was not found in ${args.path}. ${nearest(text, args.old)}`);
  if (at.length > 1) {
    const lines = at.map((offset) => lineOf(text, offset));
    throw new Error(
      `edit_file: the text to replace occurs ${at.length} times in ${args.path} (at lines ${lines.join(', ')}); include more of the surrounding text in old so it matches once`,
    );
  }
  const start = at[0] as number;
  const edited = text.slice(0, start) + args.new + text.slice(start + args.old.length);
  const change = writeTracked(ws.store, place, args.path, edited, call, `edit_file ${place.path} at line ${lineOf(text, start)}`);
  return { path: place.path, line: lineOf(text, start), ...(change ? { change } : { unchanged: 'old and new are the same' }) };
}

/** The file's text, read through the walk's descriptor; a missing, binary or hard-linked file is refused. */
function readText(place: Place, input: string): string {
  let opened: { fd: number };
  try {
    opened = openRegularFile(place, input, { maxBytes: READ_POLICY.maxFileBytes, tool: 'edit_file' });
  } catch (error) {
    if (/does not exist/.test((error as Error).message)) throw new Error(`${input} is not an existing file; write_file creates one`);
    throw error;
  }
  try {
    const type = binaryType(readHead(opened.fd));
    if (type) throw new Error(`${input} is a ${type}, not text; edit_file only edits text`);
    return fs.readFileSync(opened.fd, 'utf8');
  } finally {
    fs.closeSync(opened.fd);
  }
}

/** Offsets where `needle` starts, overlapping ones included. */
export function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = text.indexOf(needle); i !== -1 && found.length < 100; i = text.indexOf(needle, i + 1)) found.push(i);
  return found;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** The lines of the file most like the first line of `old`, numbered, for the model to copy exactly. */
export function nearest(text: string, old: string): string {
  const wanted = old.split('\n').find((l) => l.trim() !== '') ?? old;
  const lines = text.split('\n');
  const scored = lines.map((line, i) => ({ i, score: similarity(line.trim(), wanted.trim()) })).filter((s) => s.score > 0.3);
  scored.sort((a, b) => b.score - a.score);
  const best = scored.slice(0, 3).sort((a, b) => a.i - b.i);
  if (best.length === 0) return 'No line is close to it; read_file shows the current text.';
  const shown = best.map(({ i }) => `${i + 1}\t${(lines[i] ?? '').slice(0, 300)}`).join('\n');
  return `The nearest lines are (copy the text exactly, whitespace included):\n${shown}`;
}

/** Dice coefficient over character bigrams: 1 for equal strings, 0 for nothing in common. */
function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const grams = new Map<string, number>();
  for (let i = 0; i < a.length - 1; i++) grams.set(a.slice(i, i + 2), (grams.get(a.slice(i, i + 2)) ?? 0) + 1);
  let shared = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const gram = b.slice(i, i + 2);
    const count = grams.get(gram) ?? 0;
    if (count > 0) {
      shared++;
      grams.set(gram, count - 1);
    }
  }
  return (2 * shared) / (a.length + b.length - 2);
}
