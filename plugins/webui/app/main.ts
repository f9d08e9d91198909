// The app shell: the menu, the page in view, the language switch, and the connection to homed with its state
// ("Reconnecting…" while it is lost; it comes back by itself and the pages reload what they show), and the dialog of
// a question waiting for a person, over every page.
import { h, render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import htm from 'htm';
import type { KernelStatus } from '../../../protocol/admin';
import { SocketApi } from '../../../protocol/socket-api';
import { ApprovalDialog } from './approval-dialog';
import { connect, type ConnectionState } from './connection';
import { chooseLanguage, initialLanguage, LANGUAGES, translator, type Language } from './i18n';
import { menu, useRoute } from './router';
import './app.css';

const html = htm.bind(h);

function App() {
  const client = useMemo(() => connect(), []);
  const [language, setLanguage] = useState<Language>(initialLanguage);
  const t = useMemo(() => translator(language), [language]);
  const [route, go] = useRoute();
  const [state, setState] = useState<ConnectionState>(client.state);
  const [status, setStatus] = useState<KernelStatus | null>(null);

  useEffect(() => {
    const stop = client.onState(setState);
    // It may have opened between the first render and this effect.
    setState(client.state);
    return stop;
  }, [client]);
  useEffect(() => chooseLanguage(language), [language]);
  useEffect(() => {
    if (state !== 'connected') return;
    client.call(SocketApi.KernelStatus, {}).then(setStatus, () => setStatus(null));
  }, [state]);

  const page = menu.find((entry) => entry.name === route);
  return html`
    <header>
      <strong class="brand">HomeAgent</strong>
      <span class="connection ${state}" role="status" aria-label=${t('shell.connection')}>${t(`shell.${state}`)}</span>
      <label class="language">
        <span class="hidden">${t('shell.language')}</span>
        <select aria-label=${t('shell.language')} value=${language} onChange=${(e: Event) => setLanguage((e.target as HTMLSelectElement).value as Language)}>
          ${LANGUAGES.map((code) => html`<option value=${code}>${code === 'en' ? 'English' : '中文'}</option>`)}
        </select>
      </label>
    </header>
    <nav aria-label=${t('shell.menu')}>
      ${menu.map(
        (entry) =>
          html`<button type="button" aria-current=${route === entry.name ? 'page' : undefined} onClick=${() => go(entry.name)}>
            ${t(`menu.${entry.name}`)}
          </button>`,
      )}
      <p class="status" aria-label=${t('shell.kernelStatus')}>
        ${status ? t('shell.status', { version: status.version, ready: status.plugins.ready, enabled: status.plugins.enabled }) : t('shell.waiting')}
      </p>
    </nav>
    <main>${page && html`<${page.component} client=${client} t=${t} />`}</main>
    <${ApprovalDialog} client=${client} t=${t} />
  `;
}

const root = document.getElementById('app');
if (root) render(html`<${App} />`, root);
