// The Knowledge page: the knowledge folder's files with their state (indexed, or why not), search with each hit's
// file § heading, upload (the file's bytes to /api/knowledge/upload, which adds it by knowledge/add), removal after
// a confirmation, and reindexing. The list follows the kernel's knowledge.changed events: a file added, indexed,
// refused or removed anywhere (homectl, the folder itself) shows without a reload.
import { h } from 'preact';
import { useState } from 'preact/hooks';
import htm from 'htm';
import { KernelEvents } from '../../../../protocol/events';
import { formatBytes } from '../../../../protocol/format';
import type { KnowledgeFile, KnowledgeHit } from '../../../../protocol/knowledge';
import { SocketApi } from '../../../../protocol/socket-api';
import { coalesced } from '../coalesced';
import { useLiveEvents, type LiveEvent } from '../live-events';
import type { PageProps } from '../router';
import './memory.css';

const html = htm.bind(h);
const SEARCH_LIMIT = 10;
const EVENTS = [KernelEvents.KnowledgeChanged];

export default function KnowledgePage({ client, t }: PageProps) {
  const [files, setFiles] = useState<KnowledgeFile[] | null>(null);
  const [error, setError] = useState('');
  const [note, setNote] = useState('');
  const [load] = useState(() =>
    coalesced(async () => {
      try {
        setFiles((await client.call(SocketApi.KnowledgeList, {})).files);
        setError('');
      } catch (e) {
        setError((e as Error).message);
      }
    }),
  );
  // Only the kernel publishes knowledge.changed; a plugin named "knowledge" could publish the same name.
  const onEvent = (event: LiveEvent): void => {
    if (event.source === 'kernel') load();
  };
  const live = useLiveEvents(client, EVENTS, load, onEvent);
  const reindex = (): void => {
    setNote(t('knowledge.reindexing'));
    client
      .call(SocketApi.KnowledgeReindex, {})
      .then((r) => setNote(t('knowledge.reindexed', { files: r.files, chunks: r.chunks, ms: r.ms })))
      .catch((e: Error) => setNote(e.message))
      .finally(() => void load());
  };
  return html`
    <section class="knowledge" aria-labelledby="knowledge-title">
      <h2 id="knowledge-title">${t('knowledge.title')}</h2>
      <p class="live-note" role="status">${live ? t('knowledge.live') : t('knowledge.notLive')}</p>
      <${Upload} t=${t} onDone=${load} />
      <${KnowledgeSearch} client=${client} t=${t} />
      <section aria-labelledby="knowledge-files-title">
        <h3 id="knowledge-files-title">${t('knowledge.files')}</h3>
        <button type="button" onClick=${reindex}>${t('knowledge.reindex')}</button>
        ${note && html`<p class="facts" role="status">${note}</p>`} ${error && html`<p class="error" role="alert">${error}</p>`}
        ${
          files === null
            ? html`<p>${t('knowledge.loading')}</p>`
            : files.length === 0
              ? html`<p>${t('knowledge.empty')}</p>`
              : html`<ul class="hits" aria-label=${t('knowledge.files')}>
                  ${files.map((f) => html`<${FileItem} key=${f.file} file=${f} client=${client} t=${t} onDone=${load} />`)}
                </ul>`
        }
      </section>
    </section>
  `;
}

interface FileProps {
  file: KnowledgeFile;
  client: PageProps['client'];
  t: PageProps['t'];
  onDone(): void;
}

function FileItem({ file: f, client, t, onDone }: FileProps) {
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState('');
  const remove = (): void => {
    client
      .call(SocketApi.KnowledgeRemove, { file: f.file })
      .then(onDone)
      .catch((e: Error) => setError(e.message));
  };
  return html`<li class="hit knowledge-file" aria-label=${f.file}>
    <p class="text">
      <strong>${f.file}</strong>
      ${f.error ? html`<span class="badge error">${t('knowledge.notIndexed')}</span>` : html`<span class="badge">${t('knowledge.indexed')}</span>`}
    </p>
    <p class="facts">
      ${f.error ? t('knowledge.why', { error: f.error }) : t('knowledge.chunks', { chunks: f.chunks })} · ${formatBytes(f.bytes)} ·
      ${t('knowledge.indexedAt', { when: new Date(f.indexedAt).toLocaleString() })}
    </p>
    ${
      asking
        ? html`<div class="confirm" role="group" aria-label=${t('knowledge.confirmRemove', { file: f.file })}>
            <span>${t('knowledge.confirmRemove', { file: f.file })}</span>
            <button type="button" class="danger" onClick=${remove}>${t('knowledge.yesRemove')}</button>
            <button type="button" onClick=${() => setAsking(false)}>${t('knowledge.cancel')}</button>
          </div>`
        : html`<button type="button" aria-label=${t('knowledge.removeOne', { file: f.file })} onClick=${() => setAsking(true)}>
            ${t('knowledge.remove')}
          </button>`
    }
    ${error && html`<p class="error" role="alert">${error}</p>`}
  </li>`;
}

function Upload({ t, onDone }: { t: PageProps['t']; onDone(): void }) {
  const [file, setFile] = useState<File | null>(null);
  const [replace, setReplace] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const send = async (): Promise<void> => {
    if (!file) return;
    setBusy(true);
    setMessage(null);
    try {
      const query = new URLSearchParams({ name: file.name, ...(replace ? { replace: 'true' } : {}) });
      const response = await fetch(`/api/knowledge/upload?${query}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/octet-stream' },
        body: file,
        credentials: 'same-origin',
      });
      const answer = (await response.json().catch(() => ({}))) as { file?: KnowledgeFile; error?: string; message?: string };
      if (!response.ok || !answer.file) throw new Error(answer.error ?? answer.message ?? `HTTP ${response.status}`);
      setMessage({ ok: true, text: t('knowledge.added', { file: answer.file.file, chunks: answer.file.chunks }) });
      onDone();
    } catch (e) {
      setMessage({ ok: false, text: t('knowledge.uploadFailed', { error: (e as Error).message }) });
    } finally {
      setBusy(false);
    }
  };
  return html`
    <section aria-labelledby="knowledge-upload-title">
      <h3 id="knowledge-upload-title">${t('knowledge.upload')}</h3>
      <form class="search-form" onSubmit=${(e: Event) => (e.preventDefault(), void send())}>
        <input type="file" aria-label=${t('knowledge.fileToAdd')} onChange=${(e: Event) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)} />
        <label class="switch"
          ><input type="checkbox" checked=${replace} onChange=${(e: Event) => setReplace((e.target as HTMLInputElement).checked)} />
          ${t('knowledge.replace')}</label
        >
        <button type="submit" disabled=${!file || busy}>${busy ? t('knowledge.uploading') : t('knowledge.add')}</button>
      </form>
      ${message && html`<p class=${message.ok ? 'facts' : 'error'} role=${message.ok ? 'status' : 'alert'}>${message.text}</p>`}
    </section>
  `;
}

function KnowledgeSearch({ client, t }: PageProps) {
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<KnowledgeHit[] | null>(null);
  const [error, setError] = useState('');
  const search = async (): Promise<void> => {
    if (!query.trim()) return;
    try {
      setHits((await client.call(SocketApi.KnowledgeSearch, { query, limit: SEARCH_LIMIT })).hits);
      setError('');
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return html`
    <section aria-labelledby="knowledge-search-title">
      <h3 id="knowledge-search-title">${t('knowledge.searchTitle')}</h3>
      <form class="search-form" role="search" onSubmit=${(e: Event) => (e.preventDefault(), void search())}>
        <input
          type="search"
          aria-label=${t('knowledge.query')}
          placeholder=${t('knowledge.query')}
          value=${query}
          onInput=${(e: Event) => setQuery((e.target as HTMLInputElement).value)}
        />
        <button type="submit">${t('knowledge.search')}</button>
      </form>
      ${error && html`<p class="error" role="alert">${error}</p>`}
      ${
        hits !== null &&
        (hits.length === 0
          ? html`<p>${t('knowledge.noHits')}</p>`
          : html`<ul class="knowledge-hits" aria-label=${t('knowledge.hits')}>
              ${hits.map(
                (hit) =>
                  html`<li key=${hit.chunk} class="knowledge-hit">
                    <p class="where">
                      <strong>${hit.file}</strong>${hit.heading ? ` § ${hit.heading}` : ''} <small>${t('knowledge.line', { line: hit.line })}</small>
                    </p>
                    <p class="text">${hit.text}</p>
                  </li>`,
              )}
            </ul>`)
      }
    </section>
  `;
}
