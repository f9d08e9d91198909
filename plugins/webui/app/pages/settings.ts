// The Settings page, rendered from the settings' definitions alone (config/list --all, each entry with its `def`):
// the type picks the input, the definition gives the range, options, default and description; a save shows the
// kernel's answer beside the setting. Nothing here knows a particular setting. Changes made elsewhere arrive pushed.
import { h } from 'preact';
import { useState } from 'preact/hooks';
import htm from 'htm';
import type { ConfigDef, ConfigEntry } from '../../../../protocol/config';
import { SocketApi } from '../../../../protocol/socket-api';
import { formatBytesExact, formatDurationExact } from '../../../../protocol/format';
import type { Client } from '../connection';
import type { T } from '../i18n';
import type { PageProps } from '../router';
import { useLiveEvents, type LiveEvent } from '../live-events';
import './settings.css';

const html = htm.bind(h);
const EVENTS = ['config.changed'];
const CORE = 'core';

const entryId = (e: { scope: string; key: string }): string => `${e.scope}\u0000${e.key}`;

export default function SettingsPage({ client, t }: PageProps) {
  const [entries, setEntries] = useState<ConfigEntry[] | null>(null);
  const [error, setError] = useState('');
  const load = (): void => {
    client.call(SocketApi.ConfigList, { all: true }).then(
      (answer) => {
        setEntries(answer.entries);
        setError('');
      },
      (e: Error) => setError(e.message),
    );
  };
  const onEvent = (event: LiveEvent): void => {
    const change = event.data as { entry?: ConfigEntry } | undefined;
    const entry = change?.entry;
    if (!entry) return;
    setEntries((list) => {
      if (!list) return list;
      const at = list.findIndex((e) => entryId(e) === entryId(entry));
      if (at < 0) return [...list, entry];
      const next = [...list];
      next[at] = entry;
      return next;
    });
  };
  useLiveEvents(client, EVENTS, load, onEvent);

  return html`
    <section class="settings" aria-labelledby="settings-title">
      <h2 id="settings-title">${t('settings.title')}</h2>
      ${error && html`<p class="error" role="alert">${error}</p>`}
      ${entries === null ? html`<p>${t('settings.loading')}</p>` : groupByScope(entries).map(([scope, list]) => html`<${ScopeGroup} key=${scope} scope=${scope} entries=${list} client=${client} t=${t} />`)}
    </section>
  `;
}

/** Core first, then the plugins by name; inside each, settings in the order listed. */
function groupByScope(entries: ConfigEntry[]): [string, ConfigEntry[]][] {
  const groups = new Map<string, ConfigEntry[]>();
  for (const e of entries) groups.set(e.scope, [...(groups.get(e.scope) ?? []), e]);
  return [...groups.entries()].sort(([a], [b]) => (a === CORE ? -1 : b === CORE ? 1 : a.localeCompare(b)));
}

function ScopeGroup({ scope, entries, client, t }: { scope: string; entries: ConfigEntry[]; client: Client; t: T }) {
  const categories = new Map<string, ConfigEntry[]>();
  for (const e of entries) {
    const category = e.def?.category ?? t('settings.general');
    categories.set(category, [...(categories.get(category) ?? []), e]);
  }
  const headingId = `scope-${scope}`;
  return html`
    <section class="scope" aria-labelledby=${headingId}>
      <h3 id=${headingId}>${scope === CORE ? t('settings.core') : t('settings.plugin', { name: scope })}</h3>
      ${[...categories.entries()].map(
        ([category, list]) => html`
          <section class="category" aria-label=${`${scope} ${category}`}>
            <h4>${category}</h4>
            ${list.map((e) => html`<${Setting} key=${entryId(e)} entry=${e} client=${client} t=${t} />`)}
          </section>
        `,
      )}
    </section>
  `;
}

/** What the input shows for a stored value: the text a person would type. */
function textOf(entry: ConfigEntry): string {
  const def = entry.def;
  if (def?.type === 'password') return '';
  if ((def?.type === 'duration' || def?.type === 'size') && entry.display !== undefined) return entry.display;
  if (entry.value === undefined || entry.value === null) return '';
  if (def?.type === 'json' || typeof entry.value === 'object') return JSON.stringify(entry.value, null, 2);
  return String(entry.value);
}

/** The default as people write it: a duration or a size in its units (`2m`, `8MiB`), like the value above it. */
function shownDefault(def: ConfigDef): string {
  if (def.default === undefined) return '';
  if (typeof def.default === 'number' && def.type === 'duration') return formatDurationExact(def.default);
  if (typeof def.default === 'number' && def.type === 'size') return formatBytesExact(def.default);
  return typeof def.default === 'string' ? def.default : JSON.stringify(def.default);
}

interface Outcome {
  kind: 'saved' | 'error';
  text: string;
}

function Setting({ entry, client, t }: { entry: ConfigEntry; client: Client; t: T }) {
  const def = entry.def;
  const [draft, setDraft] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  const id = `setting-${entry.scope}-${entry.key}`.replace(/[^A-Za-z0-9_-]/g, '_');
  const labelId = `${id}-label`;
  const lang = t('settings.lang') === 'zh' ? 'zh' : 'en';
  const description = def?.description?.[lang] ?? def?.description?.[lang === 'zh' ? 'en' : 'zh'] ?? '';
  // A guarded setting widens what the agent may do: the kernel takes it only from homectl, so the page shows the command.
  const guarded = def?.guarded === true;
  const readOnly = guarded || def?.readOnly !== undefined || def === undefined || entry.omittedBytes !== undefined;

  /** Saves a value (config/set), or goes back to the default (config/unset). */
  const send = (change: { value: unknown } | { reset: true }): void => {
    setBusy(true);
    setOutcome(null);
    const target = { scope: entry.scope, key: entry.key };
    const reset = 'reset' in change;
    (reset ? client.call(SocketApi.ConfigUnset, target) : client.call(SocketApi.ConfigSet, { ...target, value: change.value }))
      .then(
        () => {
          setDraft(null);
          const words = reset ? t('settings.resetDone') : def?.restart ? t('settings.savedRestart') : t('settings.saved');
          setOutcome({ kind: 'saved', text: words });
        },
        (e: Error) => setOutcome({ kind: 'error', text: e.message }),
      )
      .finally(() => setBusy(false));
  };
  const save = (event: Event): void => {
    event.preventDefault();
    if (!def) return;
    const text = draft ?? textOf(entry);
    send({ value: def.type === 'bool' ? text === 'true' : text });
  };
  const current = draft ?? (def?.type === 'bool' ? String(entry.value === true) : textOf(entry));
  const edit = (value: string): void => {
    setDraft(value);
    setOutcome(null);
  };

  return html`
    <form class="setting" role="group" aria-labelledby=${labelId} novalidate onSubmit=${save}>
      <label id=${labelId} for=${id} class="key">${entry.key}</label>
      ${renderInput(def, id, current, readOnly || busy, edit, t, entry)}
      ${
        !readOnly &&
        html`<span class="buttons">
          <button type="submit" disabled=${busy}>${t('settings.save')}</button>
          <button type="button" disabled=${busy || !entry.isSet} onClick=${() => send({ reset: true })}>${t('settings.reset')}</button>
        </span>`
      }
      ${description && html`<p class="description">${description}</p>`}
      <p class="facts">${facts(def, entry, t).join(' · ')}</p>
      ${guarded && html`<p class="guarded">${t('settings.guarded')} <code>${guardedCommand(entry)}</code></p>`}
      ${outcome && html`<p class=${outcome.kind} role=${outcome.kind === 'error' ? 'alert' : 'status'}>${outcome.text}</p>`}
    </form>
  `;
}

/** The command that changes a guarded setting, as homectl takes its key. */
function guardedCommand(entry: ConfigEntry): string {
  return `homectl config set ${entry.scope === CORE ? entry.key : `${entry.scope}:${entry.key}`} VALUE`;
}

/** Default, range, restart and read-only notes, from the definition. */
function facts(def: ConfigDef | undefined, entry: ConfigEntry, t: T): string[] {
  if (!def) return [t('settings.undeclared')];
  const out: string[] = [];
  if (entry.omittedBytes !== undefined) out.push(t('settings.tooBig', { bytes: entry.omittedBytes }));
  if (def.type !== 'password') out.push(def.default === undefined ? t('settings.noDefault') : t('settings.default', { value: shownDefault(def) }));
  if (def.type === 'int' || def.type === 'float') {
    if (def.min !== undefined && def.max !== undefined) out.push(t('settings.range', { min: def.min, max: def.max }));
    else if (def.min !== undefined) out.push(t('settings.atLeast', { min: def.min }));
    else if (def.max !== undefined) out.push(t('settings.atMost', { max: def.max }));
  }
  if (def.type === 'password') out.push(entry.isSet ? t('settings.passwordSet') : t('settings.passwordUnset'));
  if (def.restart) out.push(t('settings.restart'));
  if (def.readOnly !== undefined) out.push(t('settings.readOnly', { why: def.readOnly }));
  return out;
}

function renderInput(def: ConfigDef | undefined, id: string, value: string, disabled: boolean, edit: (v: string) => void, t: T, entry: ConfigEntry) {
  const onInput = (e: Event): void => edit((e.currentTarget as HTMLInputElement).value);
  switch (def?.type) {
    case 'enum':
      return html`<select id=${id} disabled=${disabled} value=${value} onChange=${onInput}>
        ${(def.options ?? []).map((o) => html`<option value=${o} selected=${o === value}>${o}</option>`)}
      </select>`;
    case 'bool':
      return html`<span class="switch"
        ><input
          id=${id}
          type="checkbox"
          role="switch"
          disabled=${disabled}
          checked=${value === 'true'}
          onChange=${(e: Event) => edit(String((e.currentTarget as HTMLInputElement).checked))}
        /><span aria-hidden="true">${t('settings.on')}</span></span
      >`;
    case 'int':
    case 'float':
      return html`<input
        id=${id}
        type="number"
        inputmode=${def.type === 'int' ? 'numeric' : 'decimal'}
        step=${def.type === 'int' ? '1' : 'any'}
        min=${def.min}
        max=${def.max}
        disabled=${disabled}
        value=${value}
        onInput=${onInput}
      />`;
    case 'json':
      return html`<textarea id=${id} class="json" rows="4" spellcheck="false" disabled=${disabled} value=${value} onInput=${onInput}></textarea>`;
    case 'password':
      return html`<input id=${id} type="password" autocomplete="new-password" disabled=${disabled} value=${value} onInput=${onInput} />`;
    default:
      // string, path, duration and size: text as people write it (`2m`, `8MiB`); an undeclared key shows its value.
      return html`<input
        id=${id}
        type="text"
        spellcheck="false"
        disabled=${disabled}
        value=${value}
        placeholder=${def ? shownDefault(def) : ''}
        onInput=${onInput}
        data-type=${def?.type ?? entry.scope}
      />`;
  }
}
