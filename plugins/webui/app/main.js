// The app shell: the menu, the page in view, and the connection to homed with its status.
import { h, render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import htm from 'htm';
import { connect } from './connection.js';
import './app.css';

const html = htm.bind(h);
const PAGES = ['Chat', 'Plugins', 'Settings', 'Memory', 'Knowledge'];
const STATE_WORDS = { connecting: 'Connecting…', connected: 'Connected', reconnecting: 'Reconnecting…' };

function App() {
  const [page, setPage] = useState('Chat');
  const [state, setState] = useState('connecting');
  const [status, setStatus] = useState(null);
  const [error, setError] = useState('');
  const client = useMemo(() => connect({ onState: setState }), []);

  useEffect(() => {
    if (state !== 'connected') return;
    client.request('kernel/status').then(setStatus, (e) => setError(e.message));
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
      <p class="status" aria-label="Kernel status">
        ${status ? `homed ${status.version}, ${status.plugins.ready}/${status.plugins.enabled} plugins ready` : error || 'Waiting for homed…'}
      </p>
    </main>
  `;
}

render(html`<${App} />`, document.getElementById('app'));
