// The Timers page: the timer plugin's timers (what, when, repeat), each cancelled after a confirmation, and the
// kernel's status. Nothing is asked for on a clock: the timers are read when the page opens and on each of the timer
// plugin's events (a timer set, fired or cancelled, by anyone); the status when the page opens and on each plugin
// event (plugins ready/enabled change with them), and both again on Refresh.
import { h } from 'preact';
import { useState } from 'preact/hooks';
import htm from 'htm';
import type { KernelStatus } from '../../../../protocol/admin';
import { SocketApi } from '../../../../protocol/socket-api';
import { formatBytes, formatDuration } from '../../../../protocol/format';
import { TimerApi, TimerEvents, type TimerView } from '../../../../protocol/timer';
import type { PageProps } from '../router';
import { coalesced } from '../coalesced';
import { useLiveEvents, type LiveEvent } from '../live-events';
import './timers.css';

const html = htm.bind(h);
const EVENTS = ['plugin.*', ...Object.values(TimerEvents)];
/** The plugin whose events name timers: another plugin's events of the same names are not its. */
const TIMER_PLUGIN = 'timer';

export default function TimersPage({ client, t }: PageProps) {
  const [timers, setTimers] = useState<TimerView[] | null>(null);
  const [timersError, setTimersError] = useState('');
  const [status, setStatus] = useState<{ at: number; status: KernelStatus } | null>(null);
  const [statusError, setStatusError] = useState('');
  const [confirming, setConfirming] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const [readTimers] = useState(() =>
    coalesced(() =>
      client.call(TimerApi.List, {}).then(
        (r) => {
          setTimers(r.timers);
          setTimersError('');
        },
        (e: Error) => setTimersError(e.message),
      ),
    ),
  );
  const readStatus = (): void => {
    client.call(SocketApi.KernelStatus, {}).then(
      (s) => {
        setStatus({ at: Date.now(), status: s });
        setStatusError('');
      },
      (e: Error) => setStatusError(e.message),
    );
  };
  const readAll = (): void => {
    readTimers();
    readStatus();
  };
  const onEvent = (event: LiveEvent): void => {
    if (event.name.startsWith('plugin.')) readStatus();
    else if (event.source === TIMER_PLUGIN) readTimers();
  };
  const live = useLiveEvents(client, EVENTS, readAll, onEvent);

  const cancel = (id: string): void => {
    setBusy(id);
    client
      .call(TimerApi.Cancel, { id })
      .then(
        () => setTimersError(''),
        (e: Error) => setTimersError(e.message),
      )
      .finally(() => {
        setBusy(null);
        setConfirming(null);
        readTimers();
      });
  };

  return html`
    <section class="timers-page" aria-labelledby="timers-title">
      <h2 id="timers-title">${t('timers.title')}</h2>
      <p class="live-note" role="status">${live ? t('timers.live') : t('timers.notLive')}</p>
      <button type="button" class="refresh" onClick=${readAll}>${t('timers.refresh')}</button>
      ${timersError && html`<p class="error" role="alert">${timersError}</p>`}
      ${
        timers === null
          ? !timersError && html`<p>${t('timers.loading')}</p>`
          : timers.length === 0
            ? html`<p class="timers-empty">${t('timers.empty')}</p>`
            : html`
                <table class="timer-table" aria-label=${t('timers.table')}>
                  <thead>
                    <tr>
                      ${['what', 'when', 'repeat', 'actions'].map((k) => html`<th scope="col">${t(`timers.${k}`)}</th>`)}
                    </tr>
                  </thead>
                  <tbody>
                    ${timers.map(
                      (timer) =>
                        html`<${TimerRow}
                          key=${timer.id}
                          timer=${timer}
                          t=${t}
                          confirming=${confirming === timer.id}
                          busy=${busy === timer.id}
                          onAsk=${() => setConfirming(timer.id)}
                          onKeep=${() => setConfirming(null)}
                          onCancel=${() => cancel(timer.id)}
                        />`,
                    )}
                  </tbody>
                </table>
              `
      }
      <h2 id="status-title">${t('timers.status')}</h2>
      ${statusError && html`<p class="error" role="alert">${statusError}</p>`}
      ${status ? html`<${StatusList} status=${status.status} readAt=${status.at} t=${t} />` : !statusError && html`<p>${t('timers.loading')}</p>`}
    </section>
  `;
}

interface RowProps {
  timer: TimerView;
  t: PageProps['t'];
  confirming: boolean;
  busy: boolean;
  onAsk(): void;
  onKeep(): void;
  onCancel(): void;
}

function TimerRow({ timer, t, confirming, busy, onAsk, onKeep, onCancel }: RowProps) {
  const when = new Date(timer.fires_at);
  return html`
    <tr class="timer">
      <td class="what">${timer.message}</td>
      <td data-label=${t('timers.when')}>
        <time datetime=${timer.fires_at}>${when.toLocaleString()}</time>
        <small class="fires-in">${t('timers.in', { left: timer.fires_in })}</small>
      </td>
      <td data-label=${t('timers.repeat')}>${timer.repeat ? t('timers.every', { every: timer.repeat }) : t('timers.once')}</td>
      <td class="actions">
        ${
          confirming
            ? html`<span class="confirm" role="group" aria-label=${t('timers.confirmOf', { what: timer.message })}>
                <span>${t('timers.confirm')}</span>
                <button type="button" class="danger" disabled=${busy} onClick=${onCancel}>${t('timers.yesCancel')}</button>
                <button type="button" disabled=${busy} onClick=${onKeep}>${t('timers.keep')}</button>
              </span>`
            : html`<button type="button" aria-label=${t('timers.cancelOf', { what: timer.message })} onClick=${onAsk}>${t('timers.cancel')}</button>`
        }
      </td>
    </tr>
  `;
}

interface StatusProps {
  status: KernelStatus;
  readAt: number;
  t: PageProps['t'];
}

/** The kernel's figures as a description list; the uptime counts from when they were read. */
function StatusList({ status: s, readAt, t }: StatusProps) {
  const rows: [string, string][] = [
    ['version', `${s.version} (Node.js ${s.node})`],
    ['uptime', formatDuration(s.uptime_ms + (Date.now() - readAt))],
    ['pid', String(s.pid)],
    ['dataDir', s.dataDir],
    ['plugins', t('timers.pluginCounts', { ready: s.plugins.ready, enabled: s.plugins.enabled, total: s.plugins.total })],
    ['turns', t('timers.turnCounts', { running: s.turns.running, waiting: s.turns.waiting })],
    ['rss', formatBytes(s.rss_bytes)],
  ];
  return html`
    <dl class="kernel-status" aria-labelledby="status-title">
      ${rows.map(
        ([key, value]) =>
          html`<div class="status-row">
            <dt>${t(`timers.${key}`)}</dt>
            <dd data-key=${key}>${value}</dd>
          </div>`,
      )}
    </dl>
  `;
}
