// The Plugins page: one row per plugin with its live state, process and last exit; start, stop, restart, enable and
// disable; a row opened shows the walls around the plugin and its recent log lines. States arrive pushed
// (plugin.* events); the figures (memory, CPU, uptime) are read again on each event and when a row is opened.
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import htm from 'htm';
import type { LastExit, LogLine, PluginAction, PluginInfo, PluginStatus } from '../../../../protocol/admin';
import type { PluginStateEvent } from '../../../../protocol/events';
import { SocketApi } from '../../../../protocol/socket-api';
import { formatBytes, formatDuration } from '../../../../protocol/format';
import type { Client } from '../connection';
import type { T } from '../i18n';
import type { PageProps } from '../router';
import { coalesced } from '../coalesced';
import { useLiveEvents, type LiveEvent } from '../live-events';
import { PackageUpload } from '../package-upload';
import './plugins.css';

const html = htm.bind(h);
const EVENTS = ['plugin.*'];
const LOG_LINES = 50;

export default function PluginsPage({ client, t }: PageProps) {
  const [plugins, setPlugins] = useState<PluginStatus[] | null>(null);
  const [readAt, setReadAt] = useState(0);
  const [error, setError] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const [refreshKey, setRefreshKey] = useState(0);
  const [load] = useState(() =>
    coalesced(async () => {
      try {
        const { plugins: list } = await client.call(SocketApi.PluginsList, {});
        setPlugins(list);
        setReadAt(Date.now());
        setError('');
      } catch (e) {
        setError((e as Error).message);
      }
    }),
  );
  const onEvent = (event: LiveEvent): void => {
    if (event.name === 'plugin.state') {
      const change = event.data as PluginStateEvent;
      setPlugins(
        (list) => list && list.map((p) => (p.name === change.name ? { ...p, state: change.state, pid: change.pid, enabled: change.state !== 'disabled' } : p)),
      );
    }
    load();
    setRefreshKey((k) => k + 1);
  };
  const live = useLiveEvents(client, EVENTS, load, onEvent);

  return html`
    <section class="plugins" aria-labelledby="plugins-title">
      <h2 id="plugins-title">${t('plugins.title')}</h2>
      <p class="live-note" role="status">${live ? t('plugins.live') : t('plugins.notLive')}</p>
      ${error && html`<p class="error" role="alert">${error}</p>`}
      <${PackageUpload} t=${t} onInstalled=${load} />
      ${
        plugins === null
          ? html`<p>${t('plugins.loading')}</p>`
          : plugins.length === 0
            ? html`<p>${t('plugins.empty')}</p>`
            : html`
                <table role="table" class="plugin-table" aria-label=${t('plugins.table')}>
                  <thead role="rowgroup">
                    <tr role="row">
                      ${['name', 'state', 'pid', 'uptime', 'restarts', 'rss', 'cpu', 'lastExit', 'actions'].map(
                        (k) => html`<th role="columnheader" scope="col">${t(`plugins.${k}`)}</th>`,
                      )}
                    </tr>
                  </thead>
                  <tbody role="rowgroup">
                    ${plugins.map(
                      (p) =>
                        html`<${PluginRow}
                          key=${p.name}
                          plugin=${p}
                          readAt=${readAt}
                          client=${client}
                          t=${t}
                          open=${open === p.name}
                          refreshKey=${refreshKey}
                          onToggle=${() => setOpen(open === p.name ? null : p.name)}
                          onDone=${load}
                        />`,
                    )}
                  </tbody>
                </table>
              `
      }
    </section>
  `;
}

interface RowProps {
  plugin: PluginStatus;
  readAt: number;
  client: Client;
  t: T;
  open: boolean;
  refreshKey: number;
  onToggle(): void;
  onDone(): void;
}

function PluginRow({ plugin: p, readAt, client, t, open, refreshKey, onToggle, onDone }: RowProps) {
  const [busy, setBusy] = useState<PluginAction | null>(null);
  const [error, setError] = useState('');
  const [removing, setRemoving] = useState(false);
  const running = p.pid !== null;
  const act = (action: PluginAction): void => {
    setBusy(action);
    setError('');
    client
      .call(SocketApi.PluginsControl, { name: p.name, action })
      .catch((e: Error) => setError(e.message))
      .finally(() => {
        setBusy(null);
        onDone();
      });
  };
  const button = (action: PluginAction, label: string, disabled: boolean) =>
    html`<button type="button" class="action ${action}" disabled=${disabled || busy !== null} onClick=${() => act(action)}>${label}</button>`;
  const uptime = running && p.uptime_ms > 0 ? formatDuration(p.uptime_ms + (Date.now() - readAt)) : '—';
  const detailsId = `plugin-details-${p.name}`;
  return html`
    <tr role="row" class="plugin state-${p.state}">
      <td role="cell" class="name">${p.name}</td>
      <td role="cell" class="state" data-label=${t('plugins.state')}>
        <span class="badge ${p.state}">${p.state}</span>${p.detail ? html`<small class="detail">${p.detail}</small>` : null}
      </td>
      <td role="cell" class="pid" data-label=${t('plugins.pid')}>${p.pid ?? '—'}</td>
      <td role="cell" data-label=${t('plugins.uptime')}>${uptime}</td>
      <td role="cell" data-label=${t('plugins.restarts')}>${p.restarts}</td>
      <td role="cell" data-label=${t('plugins.rss')}>${p.rss_bytes === null ? '—' : formatBytes(p.rss_bytes)}</td>
      <td role="cell" data-label=${t('plugins.cpu')}>${p.cpu_percent === null ? '—' : `${p.cpu_percent.toFixed(1)} %`}</td>
      <td role="cell" data-label=${t('plugins.lastExit')}>${describeExit(p.last_exit, t)}</td>
      <td role="cell" class="actions">
        ${button('restart', t('plugins.restart'), p.state === 'disabled')} ${button('stop', t('plugins.stop'), !running)}
        ${button('start', t('plugins.start'), running || p.state === 'disabled')}
        ${p.state === 'disabled' ? button('enable', t('plugins.enable'), false) : button('disable', t('plugins.disable'), false)}
        <button type="button" class="details-toggle" aria-expanded=${open} aria-controls=${detailsId} onClick=${onToggle}>
          ${open ? t('plugins.hideDetails') : t('plugins.details')}
        </button>
        ${p.kind !== 'builtin' && !removing && html`<button type="button" class="danger" onClick=${() => setRemoving(true)}>${t('plugins.remove')}</button>`}
        ${removing && html`<${RemoveConfirm} name=${p.name} client=${client} t=${t} onClose=${() => setRemoving(false)} onDone=${onDone} />`}
        ${busy && html`<span class="busy" role="status">${t('plugins.busy', { action: t(`plugins.${busy}`), name: p.name })}</span>`}
        ${error && html`<p class="error" role="alert">${error}</p>`}
      </td>
    </tr>
    ${
      open &&
      html`<tr role="row" class="plugin-details" id=${detailsId}>
        <td role="cell" colspan="9"><${PluginDetails} name=${p.name} client=${client} t=${t} refreshKey=${refreshKey} /></td>
      </tr>`
    }
  `;
}

interface RemoveProps {
  name: string;
  client: Client;
  t: T;
  onClose(): void;
  onDone(): void;
}

/** Asks before plugins/remove; its data folder and settings go too only when ticked. */
function RemoveConfirm({ name, client, t, onClose, onDone }: RemoveProps) {
  const [purge, setPurge] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const remove = (): void => {
    setBusy(true);
    client
      .call(SocketApi.PluginsRemove, { name, purge })
      .then(() => {
        onClose();
        onDone();
      })
      .catch((e: Error) => {
        setError(e.message);
        setBusy(false);
      });
  };
  return html`<div class="confirm" role="group" aria-label=${t('plugins.confirmRemove', { name })}>
    <span>${t('plugins.confirmRemove', { name })}</span>
    <label class="switch"
      ><input type="checkbox" checked=${purge} onChange=${(e: Event) => setPurge((e.target as HTMLInputElement).checked)} /> ${t('plugins.purge')}</label
    >
    <button type="button" class="danger" disabled=${busy} onClick=${remove}>${t('plugins.yesRemove')}</button>
    <button type="button" disabled=${busy} onClick=${onClose}>${t('plugins.keep')}</button>
    ${error && html`<p class="error" role="alert">${error}</p>`}
  </div>`;
}

interface DetailsProps {
  name: string;
  client: Client;
  t: T;
  refreshKey: number;
}

/** The opened row: fresh figures (plugins/info), the walls, the permissions and the newest log lines. */
function PluginDetails({ name, client, t, refreshKey }: DetailsProps) {
  const [info, setInfo] = useState<PluginInfo | null>(null);
  const [lines, setLines] = useState<LogLine[] | null>(null);
  const [error, setError] = useState('');
  const read = (): void => {
    Promise.all([client.call(SocketApi.PluginsInfo, { name }), client.call(SocketApi.PluginsLogs, { name, lines: LOG_LINES })]).then(
      ([i, l]) => {
        setInfo(i.plugin);
        setLines(l.lines);
        setError('');
      },
      (e: Error) => setError(e.message),
    );
  };
  // Read when opened, and again on each plugin event while open.
  useEffect(read, [refreshKey]);
  return html`
    <section class="details" aria-label=${t('plugins.detailsOf', { name })}>
      ${error && html`<p class="error" role="alert">${error}</p>`}
      ${
        info &&
        html`
          <p class="figures">
            ${t('plugins.rss')}: ${info.rss_bytes === null ? '—' : formatBytes(info.rss_bytes)} · ${t('plugins.cpu')}:
            ${info.cpu_percent === null ? '—' : `${info.cpu_percent.toFixed(1)} %`} · ${t('plugins.permissions')}:
            ${info.permissions.length ? info.permissions.join(', ') : t('plugins.none')}
          </p>
          ${info.last_exit?.detail ? html`<p class="exit-detail">${t('plugins.lastExit')}: ${info.last_exit.detail}</p>` : null}
          <h3>${t('plugins.walls')}</h3>
          ${
            info.sandbox.length === 0
              ? html`<p>${t('plugins.noWalls')}</p>`
              : html`<ul class="walls" aria-label=${t('plugins.walls')}>
                  ${info.sandbox.map(
                    (w) =>
                      html`<li class=${w.active ? 'wall active' : 'wall inactive'}>
                        <strong>${w.wall}</strong>: ${w.active ? t('plugins.wallActive') : t('plugins.wallInactive')}${w.note ? ` — ${w.note}` : ''}
                      </li>`,
                  )}
                </ul>`
          }
          ${info.runs_as_homed_user ? html`<p class="warning">${info.runs_as_homed_user}</p>` : null}
        `
      }
      <h3>${t('plugins.logs')}</h3>
      <button type="button" onClick=${read}>${t('plugins.refreshLogs')}</button>
      ${
        lines &&
        (lines.length === 0
          ? html`<p>${t('plugins.noLogs')}</p>`
          : html`<pre class="logs" aria-label=${t('plugins.logs')}>
${lines.map((l) => `${new Date(l.at).toLocaleTimeString()} ${l.level} [${l.stream}] ${l.msg}\n`)}</pre>`)
      }
    </section>
  `;
}

function describeExit(exit: LastExit | null, t: T): string {
  if (!exit) return '—';
  const how = exit.signal ? t('plugins.exitSignal', { signal: exit.signal }) : exit.code === null ? '' : t('plugins.exitCode', { code: exit.code });
  return [exit.reason, how, t('plugins.ago', { age: formatDuration(Math.max(0, Date.now() - exit.at)) })].filter(Boolean).join(', ');
}
