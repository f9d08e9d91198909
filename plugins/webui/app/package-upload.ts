// The Plugins page's package install: a .hmap uploaded to /api/packages, the kernel's description of it (name,
// version, author, permissions, SHA-256, new or an upgrade) shown in a dialog, then Install (or Upgrade) or Cancel.
// A refusal is shown as the kernel said it; Cancel, and the upload's deadline, have the server delete the file.
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import htm from 'htm';
import { formatBytes } from '../../../protocol/format';
import { WEBUI_PACKAGES_PATH, type WebuiPackageInstalled, type WebuiPackageSummary } from '../../../protocol/webui';
import type { T } from './i18n';

const html = htm.bind(h);

/** Sends a request to the package routes; answers the JSON body, or throws its `error`. */
async function callPackages<R>(path: string, init: RequestInit): Promise<R> {
  const response = await fetch(`${WEBUI_PACKAGES_PATH}${path}`, { credentials: 'same-origin', ...init });
  if (response.status === 204) return undefined as R;
  const body = (await response.json().catch(() => ({}))) as { error?: string; message?: string };
  if (!response.ok) throw new Error(body.error ?? body.message ?? `HTTP ${response.status}`);
  return body as R;
}

export function PackageUpload({ t, onInstalled }: { t: T; onInstalled(): void }) {
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [note, setNote] = useState('');
  const [summary, setSummary] = useState<WebuiPackageSummary | null>(null);
  const upload = async (): Promise<void> => {
    if (!file) return;
    setBusy(true);
    setError('');
    setNote('');
    try {
      const query = new URLSearchParams({ name: file.name });
      setSummary(await callPackages<WebuiPackageSummary>(`?${query}`, { method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body: file }));
    } catch (e) {
      setError(t('plugins.packageRefused', { file: file.name, error: (e as Error).message }));
    } finally {
      setBusy(false);
    }
  };
  const done = (message: string): void => {
    setSummary(null);
    setNote(message);
    onInstalled();
  };
  return html`
    <section class="package-upload" aria-labelledby="package-upload-title">
      <h3 id="package-upload-title">${t('plugins.installTitle')}</h3>
      <form class="search-form" onSubmit=${(e: Event) => (e.preventDefault(), void upload())}>
        <input
          type="file"
          accept=".hmap,.zip"
          aria-label=${t('plugins.packageFile')}
          onChange=${(e: Event) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)}
        />
        <button type="submit" disabled=${!file || busy || summary !== null}>${busy ? t('plugins.checking') : t('plugins.check')}</button>
      </form>
      ${error && html`<p class="error" role="alert">${error}</p>`} ${note && html`<p class="facts" role="status">${note}</p>`}
      ${summary && html`<${PackageDialog} summary=${summary} t=${t} onDone=${done} onClose=${() => setSummary(null)} />`}
    </section>
  `;
}

interface DialogProps {
  summary: WebuiPackageSummary;
  t: T;
  onDone(message: string): void;
  onClose(): void;
}

/** What the package is and asks for, and the question: Install (or Upgrade), or Cancel. */
function PackageDialog({ summary: s, t, onDone, onClose }: DialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  // A refused install has had its upload deleted: only Close is left.
  const [failed, setFailed] = useState(false);
  const upgrade = s.installedVersion !== null;
  const cancel = (): void => {
    void callPackages(`/${s.id}`, { method: 'DELETE' }).catch(() => undefined);
    onClose();
  };
  // The server drops the upload at its deadline; the dialog goes then too.
  useEffect(() => {
    const handle = setTimeout(onClose, Math.max(0, s.expiresAt - Date.now()));
    return () => clearTimeout(handle);
  }, [s.id]);
  const install = async (): Promise<void> => {
    setBusy(true);
    setError('');
    try {
      const r = await callPackages<WebuiPackageInstalled>(`/${s.id}/install`, { method: 'POST' });
      onDone(
        r.upgradedFrom === undefined
          ? t('plugins.installed', { name: r.name, version: r.version, state: r.state })
          : t('plugins.upgraded', { name: r.name, version: r.version, from: r.upgradedFrom, state: r.state }),
      );
    } catch (e) {
      setError((e as Error).message);
      setFailed(true);
      setBusy(false);
    }
  };
  const title = t(upgrade ? 'plugins.askUpgrade' : 'plugins.askInstall', { name: s.name, version: s.version });
  const rows: [string, string][] = [
    ['plugins.name', s.name],
    [
      'plugins.version',
      upgrade ? t('plugins.versionUpgrade', { version: s.version, from: s.installedVersion ?? '' }) : t('plugins.versionNew', { version: s.version }),
    ],
    ['plugins.author', s.author ?? '—'],
    ['plugins.description', s.description ?? '—'],
    ['plugins.kind', s.kind],
    ['plugins.permissions', s.permissions.length ? s.permissions.join(', ') : t('plugins.none')],
    ['plugins.files', t('plugins.filesCount', { files: s.files, size: formatBytes(s.unpackedBytes), packed: formatBytes(s.bytes) })],
    ['plugins.sha256', s.sha256],
  ];
  return html`
    <div class="dialog-backdrop">
      <section class="package-dialog" role="dialog" aria-modal="true" aria-labelledby="package-dialog-title">
        <h3 id="package-dialog-title">${title}</h3>
        <dl class="package-facts">
          ${rows.map(
            ([key, value]) =>
              html`<div class="fact">
                <dt>${t(key)}</dt>
                <dd class=${key === 'plugins.sha256' ? 'sha' : ''}>${value}</dd>
              </div>`,
          )}
        </dl>
        ${s.runsAsHomedUser && html`<p class="warning">${s.runsAsHomedUser}</p>`}
        ${
          s.skill &&
          html`<section class="skill-report" aria-label=${t('plugins.skillReport')}>
            <h4>${t('plugins.skillReport')}</h4>
            ${s.skill.flagged > 0 && html`<p class="warning">${t('plugins.skillFlagged', { count: s.skill.flagged })}</p>`}
            <pre>${s.skill.report}</pre>
          </section>`
        }
        ${error && html`<p class="error" role="alert">${error}</p>`}
        <div class="dialog-buttons">
          ${
            !failed &&
            html`<button type="button" class="primary" disabled=${busy} onClick=${() => void install()}>
              ${busy ? t('plugins.installing') : t(upgrade ? 'plugins.upgrade' : 'plugins.install')}
            </button>`
          }
          ${
            failed
              ? html`<button type="button" onClick=${onClose}>${t('plugins.close')}</button>`
              : html`<button type="button" disabled=${busy} onClick=${cancel}>${t('plugins.cancel')}</button>`
          }
        </div>
      </section>
    </div>
  `;
}
