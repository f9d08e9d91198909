// The YAML reading of a frontmatter block (the `yaml` package, core schema), each value normalised to a string,
// with OpenClaw's one retry for an unquoted colon in a description, summary or read_when line.
import { parseDocument } from 'yaml';
import { readLineKeys } from './line-keys';

/** The keys of a block, or the first YAML issue left after the retry. */
export type YamlKeysResult = { ok: true; keys: Record<string, string> } | { ok: false; code: string; message: string };

const COLON_PRONE = /^(description|summary|read_when):[ \t]*(.*)$/;

/** Reads a block: YAML first, then the line reading for keys YAML left out; a block YAML rejects twice is refused. */
export function readFrontmatterKeys(block: string): YamlKeysResult {
  let parsed = parseYaml(block);
  if (!parsed.ok) {
    const quoted = quoteColonValues(block);
    if (quoted !== block) parsed = parseYaml(quoted);
  }
  if (!parsed.ok) return parsed;
  const keys = normalizeValues(parsed.value);
  for (const [key, value] of Object.entries(readLineKeys(block))) {
    if (!(key in keys)) keys[key] = value;
  }
  return { ok: true, keys };
}

type YamlValue = { ok: true; value: Record<string, unknown> } | { ok: false; code: string; message: string };

function parseYaml(block: string): YamlValue {
  const doc = parseDocument(block, { schema: 'core', prettyErrors: false });
  const issue = doc.errors[0];
  if (issue) return { ok: false, code: issue.code, message: firstLine(issue.message) };
  const value: unknown = doc.toJS();
  if (value === null || value === undefined) return { ok: true, value: {} };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, code: 'NOT_A_MAPPING', message: 'the frontmatter must be `key: value` lines, not a list or a single value' };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** Strings trimmed, numbers and booleans as strings, objects as JSON; empty keys and null values left out. */
function normalizeValues(raw: Record<string, unknown>): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const [rawKey, value] of Object.entries(raw)) {
    const key = rawKey.trim();
    if (!key || value === null || value === undefined) continue;
    if (typeof value === 'string') keys[key] = value.trim();
    else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') keys[key] = String(value);
    else if (typeof value === 'object') keys[key] = JSON.stringify(value);
  }
  return keys;
}

/** The block with every unquoted colon-holding description/summary/read_when value in double quotes. */
function quoteColonValues(block: string): string {
  return block
    .split('\n')
    .map((line) => {
      const match = COLON_PRONE.exec(line);
      const value = (match?.[2] ?? '').trim();
      if (!match || !value.includes(':') || value.startsWith('"') || value.startsWith("'")) return line;
      return `${match[1] ?? ''}: ${JSON.stringify(value)}`;
    })
    .join('\n');
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').trim();
}
