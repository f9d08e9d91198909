// The Memory page: search what the agent remembers (each hit's text, when it was learned, where it came from),
// an entity's facts and relations with their history (superseded and forgotten facts shown marked, as of a
// chosen time), and forgetting a memory after a confirmation.
import { h } from 'preact';
import { useState } from 'preact/hooks';
import htm from 'htm';
import type { GraphFact, GraphQueryResult, MemoryHit, MemoryValidity } from '../../../../protocol/memory';
import { SocketApi } from '../../../../protocol/socket-api';
import type { PageProps } from '../router';
import type { T } from '../i18n';
import './memory.css';

const html = htm.bind(h);
const SEARCH_LIMIT = 20;

export default function MemoryPage({ client, t }: PageProps) {
  return html`
    <section class="memory" aria-labelledby="memory-title">
      <h2 id="memory-title">${t('memory.title')}</h2>
      <${MemorySearch} client=${client} t=${t} />
      <${EntityView} client=${client} t=${t} />
    </section>
  `;
}

function MemorySearch({ client, t }: PageProps) {
  const [query, setQuery] = useState('');
  const [all, setAll] = useState(false);
  const [hits, setHits] = useState<MemoryHit[] | null>(null);
  const [error, setError] = useState('');
  const search = async (): Promise<void> => {
    if (!query.trim()) return;
    try {
      const answer = await client.call(SocketApi.MemorySearch, { query, limit: SEARCH_LIMIT, includeInvalid: all });
      setHits(answer.hits);
      setError('');
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return html`
    <section class="memory-search" aria-labelledby="memory-search-title">
      <h3 id="memory-search-title">${t('memory.searchTitle')}</h3>
      <form class="search-form" role="search" onSubmit=${(e: Event) => (e.preventDefault(), void search())}>
        <input
          type="search"
          aria-label=${t('memory.query')}
          placeholder=${t('memory.query')}
          value=${query}
          onInput=${(e: Event) => setQuery((e.target as HTMLInputElement).value)}
        />
        <label class="switch"
          ><input type="checkbox" checked=${all} onChange=${(e: Event) => setAll((e.target as HTMLInputElement).checked)} />
          ${t('memory.includeInvalid')}</label
        >
        <button type="submit">${t('memory.search')}</button>
      </form>
      ${error && html`<p class="error" role="alert">${error}</p>`}
      ${
        hits !== null &&
        (hits.length === 0
          ? html`<p>${t('memory.noHits')}</p>`
          : html`<ul class="hits" aria-label=${t('memory.hits')}>
              ${hits.map(
                (hit) =>
                  html`<li key=${hit.id} class="hit ${hit.validity}">
                    <p class="text">${hit.text} ${hit.validity !== 'current' && html`<${Validity} validity=${hit.validity} t=${t} />`}</p>
                    <p class="facts">${t('memory.learned', { when: when(hit.learnedAt) })} · ${t('memory.from', { source: hit.source })}</p>
                    ${hit.validity !== 'forgotten' && html`<${Forget} id=${hit.id} text=${hit.text} client=${client} t=${t} onDone=${search} />`}
                  </li>`,
              )}
            </ul>`)
      }
    </section>
  `;
}

function EntityView({ client, t }: PageProps) {
  const [entity, setEntity] = useState('');
  const [asOf, setAsOf] = useState('');
  const [result, setResult] = useState<GraphQueryResult | null>(null);
  const [error, setError] = useState('');
  const show = async (name = entity): Promise<void> => {
    if (!name.trim()) return;
    const at = asOf ? new Date(asOf).getTime() : undefined;
    try {
      setResult(await client.call(SocketApi.GraphQuery, { entity: name, ...(at !== undefined && !Number.isNaN(at) ? { asOf: at } : {}) }));
      setError('');
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const found = result?.entity;
  return html`
    <section class="entity" aria-labelledby="memory-entity-title">
      <h3 id="memory-entity-title">${t('memory.entityTitle')}</h3>
      <form class="search-form" onSubmit=${(e: Event) => (e.preventDefault(), void show())}>
        <input
          type="text"
          aria-label=${t('memory.entity')}
          placeholder=${t('memory.entity')}
          value=${entity}
          onInput=${(e: Event) => setEntity((e.target as HTMLInputElement).value)}
        />
        <label class="as-of"
          >${t('memory.asOf')} <input type="datetime-local" value=${asOf} onInput=${(e: Event) => setAsOf((e.target as HTMLInputElement).value)}
        /></label>
        <button type="submit">${t('memory.show')}</button>
      </form>
      ${error && html`<p class="error" role="alert">${error}</p>`}
      ${
        result &&
        (!found
          ? html`<p>${t('memory.noEntity')}</p>`
          : html`<section class="entity-view" aria-label=${t('memory.entityOf', { name: found.name })}>
              <h4>${found.name}${found.kind ? html` <small>(${found.kind})</small>` : null}</h4>
              ${found.aliases.length > 0 && html`<p class="facts">${t('memory.aliases')}: ${found.aliases.join(', ')}</p>`}
              <ul class="graph-facts" aria-label=${t('memory.factsOf', { name: found.name })}>
                ${result.facts.map((f) => html`<${FactItem} key=${f.id} fact=${f} client=${client} t=${t} onDone=${() => show(found.name)} />`)}
              </ul>
              ${
                result.neighbours.length > 0 &&
                html`<h4>${t('memory.related')}</h4>
                  <ul class="neighbours" aria-label=${t('memory.related')}>
                    ${result.neighbours.map(
                      (n) =>
                        html`<li key=${n.name}>
                          <button type="button" class="link" onClick=${() => (setEntity(n.name), void show(n.name))}>${n.name}</button>
                          <small>${n.via.predicate}</small>
                        </li>`,
                    )}
                  </ul>`
              }
              ${
                result.mergedFrom.length > 0 &&
                html`<p class="facts">${t('memory.merged')}: ${result.mergedFrom.map((m) => `${m.name} (${when(m.at)}, ${m.source})`).join('; ')}</p>`
              }
            </section>`)
      }
    </section>
  `;
}

function FactItem({ fact: f, client, t, onDone }: { fact: GraphFact; client: PageProps['client']; t: T; onDone(): void }) {
  return html`<li class="fact ${f.validity}">
    <p class="text">${f.text} ${f.validity !== 'current' && html`<${Validity} validity=${f.validity} t=${t} />`}</p>
    <p class="facts">
      ${t('memory.learned', { when: when(f.learnedAt) })}${f.validFrom !== null ? ` · ${t('memory.validFrom', { when: when(f.validFrom) })}` : ''}${
        f.invalidAt !== null ? ` · ${t('memory.invalidAt', { when: when(f.invalidAt) })}` : ''
      }
      ${f.sources.length > 0 ? ` · ${t('memory.from', { source: f.sources.join('; ') })}` : ''}
    </p>
    ${f.validity === 'current' && html`<${Forget} id=${f.id} text=${f.text} client=${client} t=${t} onDone=${onDone} />`}
  </li>`;
}

function Validity({ validity, t }: { validity: MemoryValidity; t: T }) {
  return html`<span class="badge ${validity}">${t(`memory.${validity}`)}</span>`;
}

/** Forget, then a confirmation naming the memory, then memory/forget. */
function Forget({ id, text, client, t, onDone }: { id: string; text: string; client: PageProps['client']; t: T; onDone(): void }) {
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState('');
  if (!asking)
    return html`<button type="button" class="forget" aria-label=${t('memory.forgetOne', { text })} onClick=${() => setAsking(true)}>
      ${t('memory.forget')}
    </button>`;
  const forget = (): void => {
    client
      .call(SocketApi.MemoryForget, { id })
      .then(() => {
        setAsking(false);
        onDone();
      })
      .catch((e: Error) => setError(e.message));
  };
  return html`<div class="confirm" role="group" aria-label=${t('memory.confirmForget', { text })}>
    <span>${t('memory.confirmForget', { text })}</span>
    <button type="button" class="danger" onClick=${forget}>${t('memory.yesForget')}</button>
    <button type="button" onClick=${() => setAsking(false)}>${t('memory.cancel')}</button>
    ${error && html`<p class="error" role="alert">${error}</p>`}
  </div>`;
}

function when(ms: number): string {
  return new Date(ms).toLocaleString();
}
