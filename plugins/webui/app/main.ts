// The app shell: the menu, the page in view, and the connection to homed with its status.
import { h, render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import htm from 'htm';
import { connect, type ConnectionState } from './connection';
import PluginsPage from './pages/plugins';
import SettingsPage from './pages/settings';
import pluginStrings from './strings/plugins';
import settingsStrings from './strings/settings';
import './app.css';

const html = htm.bind(h);
const PAGES = ['Chat', 'Plugins', 'Settings', 'Memory', 'Knowledge'];
const WORDS: Record<string, string> = { ...pluginStrings.en, ...settingsStrings.en };
const t = (key: string): string => WORDS[key] ?? key;
const STATE_WORDS: Record<ConnectionState, string> = { connecting: 'Connecting…', connected: 'Connected', reconnecting: 'Reconnecting…' };

interface Status {
  version: string;
  plugins: { ready: number; enabled: number };
}

function App() {
  const client = useMemo(() => connect(), []);
  const [page, setPage] = useState('Chat');
  const [state, setState] = useState<ConnectionState>(client.state);
  const [status, setStatus] = useState<Status | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    const stop = client.onState(setState);
    // It may have opened between the first render and this effect.
    setState(client.state);
    return stop;
  }, [client]);

  useEffect(() => {
    if (state !== 'connected') return;
    client.request<Status>('kernel/status').then(setStatus, (e: Error) => setError(e.message));
  }, [state]);

  return html`
    <header>
      <strong>HomeAgent</strong>
      <span class="connection ${state}" role="status" aria-label="Connection">${STATE_WORDS[state]}</span>
    </header>
    <nav aria-label="Menu">
      ${PAGES.map((name) => html`<button aria-current=${page === name ? 'page' : undefined} onClick=${() => setPage(name)}>${name}</button>`)}
    </nav>
    <main>
      <h1>${page}</h1>
      ${page === 'Plugins' && html`<${PluginsPage} client=${client} t=${t} />`}
      ${page === 'Settings' && html`<${SettingsPage} client=${client} t=${t} />`}
      <p class="status" aria-label="Kernel status">
        ${status ? `homed ${status.version}, ${status.plugins.ready}/${status.plugins.enabled} plugins ready` : error || 'Waiting for homed…'}
      </p>
    </main>
  `;
}

const root = document.getElementById('app');
if (root) render(html`<${App} />`, root);
