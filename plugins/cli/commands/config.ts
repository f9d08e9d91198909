// homectl config list|get|set|unset.
import { SocketApi, type ConfigEntry } from '../../../protocol';
import { formatBytes } from '../../../protocol/format';
import { NONE, formatValue } from './format';
import { renderTable } from './table';
import { UsageError, printJson, type Command, type CommandContext } from './types';

/** Shown for a password's value, whatever the server sent. */
const MASK = '********';

/** A KEY argument resolved into its table and its key inside it. */
export interface ConfigAddress {
  scope: string;
  key: string;
}

/** `PLUGIN:KEY` names a plugin's table; anything else (e.g. `core.log.level`) is a core key. */
export function parseConfigKey(text: string): ConfigAddress {
  const colon = text.indexOf(':');
  if (colon < 0) return { scope: 'core', key: text };
  const scope = text.slice(0, colon);
  const key = text.slice(colon + 1);
  if (!scope || !key) throw new UsageError(`"${text}" is not a key; write core.KEY or PLUGIN:KEY, e.g. core.log.level or cli:max_clients`);
  return { scope, key };
}

/** How a key is written on the command line: `core.x` as is, a plugin's as `PLUGIN:KEY`. */
export function displayKey(entry: Pick<ConfigEntry, 'scope' | 'key'>): string {
  return entry.scope === 'core' ? entry.key : `${entry.scope}:${entry.key}`;
}

/**
 * The value to show: passwords masked here too, so nothing prints one in clear; a value too big to list, its
 * size; a duration or size as people write it (`2m`, `8MiB`).
 */
export function displayValue(entry: ConfigEntry): string {
  if (entry.omittedBytes !== undefined) return `(${formatBytes(entry.omittedBytes)}, not listed: homectl config get ${displayKey(entry)})`;
  if (entry.def?.type === 'password' && entry.value !== '' && entry.value !== null && entry.value !== undefined) return MASK;
  return entry.display ?? formatValue(entry.value);
}

/**
 * What `config get` prints: the value, except a password's, which is never shown: `(set, hidden)` or `(not set)`
 * then, rather than a blank line that reads as an empty value.
 */
export function describeGot(entry: ConfigEntry): string {
  if (entry.def?.type !== 'password' || entry.omittedBytes !== undefined) return displayValue(entry);
  if (displayValue(entry) === MASK) return '(set, hidden)';
  return entry.def.default !== undefined && entry.def.default !== '' ? '(not set, a default applies, hidden)' : '(not set)';
}

/** When a change applies, for the NOTE column: `restart`, `read-only`, `not declared` (an old key, removable), or nothing. */
export function describeWhen(entry: ConfigEntry): string {
  if (!entry.def) return 'not declared';
  if (entry.def.readOnly !== undefined) return 'read-only';
  return entry.def.restart ? 'restart' : '';
}

/** What `config set` and `config unset` add below the new value: when it takes effect, if not at once. */
function restartNote(entry: ConfigEntry): string {
  if (!entry.def?.restart) return '';
  return entry.scope === 'core'
    ? '\ntakes effect when homed restarts'
    : `\ntakes effect when plugin ${entry.scope} restarts (homectl plugins restart ${entry.scope})`;
}

/** Renders entries as the `config list` table. */
export function renderConfigTable(entries: ConfigEntry[], lang: string = process.env['LANG'] ?? ''): string {
  const zh = lang.toLowerCase().startsWith('zh');
  const rows = entries.map((e) => [
    displayKey(e),
    describeType(e),
    displayValue(e) || NONE,
    e.isSet ? 'set' : 'default',
    describeWhen(e),
    (zh ? (e.def?.description?.zh ?? e.def?.description?.en) : (e.def?.description?.en ?? e.def?.description?.zh)) ?? '',
  ]);
  return renderTable(rows, ['KEY', 'TYPE', 'VALUE', 'SOURCE', 'NOTE', 'DESCRIPTION']);
}

function describeType(entry: ConfigEntry): string {
  const def = entry.def;
  if (!def) return '?';
  if (def.type === 'enum' && def.options) return `enum(${def.options.join('|')})`;
  return def.type;
}

/** A password's entry with its value hidden, for --json output. */
function maskForJson(entry: ConfigEntry): ConfigEntry {
  if (entry.def?.type !== 'password') return entry;
  const value = displayValue(entry);
  const masked: ConfigEntry = { ...entry, value: value === MASK ? MASK : entry.value };
  if (entry.def.default !== undefined && entry.def.default !== '') masked.def = { ...entry.def, default: MASK };
  return masked;
}

const list: Command = {
  words: 'config list',
  args: [],
  options: { json: { type: 'boolean' }, plugin: { type: 'string' }, all: { type: 'boolean' } },
  flags: '[--plugin NAME | --all] [--json]',
  summary: 'settings with their values and descriptions (core by default)',
  async run(_args, values, ctx) {
    if (values['all'] && values['plugin'] !== undefined) throw new UsageError('--plugin and --all exclude each other');
    const params = values['all'] ? { all: true } : { scope: typeof values['plugin'] === 'string' ? values['plugin'] : 'core' };
    const { entries } = await ctx.call(SocketApi.ConfigList, params);
    if (values['json']) printJson(ctx, entries.map(maskForJson));
    else ctx.print(renderConfigTable(entries));
  },
};

const get: Command = {
  words: 'config get',
  args: ['KEY'],
  options: { json: { type: 'boolean' } },
  flags: '[--json]',
  summary: 'the value of one setting (--json: with its metadata)',
  async run([key], values, ctx) {
    const { entry } = await ctx.call(SocketApi.ConfigGet, { ...parseConfigKey(key as string) });
    if (values['json']) printJson(ctx, maskForJson(entry));
    else ctx.print(describeGot(entry));
  },
};

const set: Command = {
  words: 'config set',
  args: ['KEY', '[VALUE]'],
  options: { json: { type: 'boolean' } },
  flags: '[--json]',
  summary: 'change a declared setting, checked against its type; with no VALUE (or -) it is read without echo, or from stdin',
  async run([key, given], values, ctx) {
    const value = given === undefined || given === '-' ? await readValue(key as string, ctx) : given;
    const { entry } = await ctx.call(SocketApi.ConfigSet, { ...parseConfigKey(key as string), value });
    if (values['json']) printJson(ctx, maskForJson(entry));
    else ctx.print(`${displayKey(entry)} = ${displayValue(entry)}${restartNote(entry)}`);
  },
};

/** A value kept off the command line (an API key): typed without echo, or piped in. */
async function readValue(key: string, ctx: CommandContext): Promise<string> {
  const value = await ctx.readSecret(`value for ${key} (not shown):`);
  if (value === '') throw new UsageError(`no value for ${key}: type it at the prompt, or pipe it in (printf %s "$VALUE" | homectl config set ${key})`);
  return value;
}

const unset: Command = {
  words: 'config unset',
  args: ['KEY'],
  options: { json: { type: 'boolean' } },
  flags: '[--json]',
  summary: 'return a setting to its default (or remove a key no longer declared)',
  async run([key], values, ctx) {
    const { entry, removed } = await ctx.call(SocketApi.ConfigUnset, { ...parseConfigKey(key as string) });
    if (values['json']) printJson(ctx, { entry: maskForJson(entry), removed });
    else if (!entry.def) ctx.print(`${displayKey(entry)} removed`);
    else ctx.print(`${displayKey(entry)} = ${displayValue(entry) || NONE} (default${removed ? '' : ', was not set'})${removed ? restartNote(entry) : ''}`);
  },
};

/** Every `config …` command. */
export const configCommands: Command[] = [list, get, set, unset];
