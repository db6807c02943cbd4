import { html, render } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { api, scopeText } from './api.js';
import { AuditView } from './views/audit.js';
import { ErrorLine, useLoad } from './views/common.js';
import { ConsolidationView } from './views/consolidation.js';
import { EpisodesView } from './views/episodes.js';
import { FactsView } from './views/facts.js';
import { GraphView } from './views/graph.js';
import { RecallView } from './views/recall.js';
import { ReviewView } from './views/review.js';

const VIEWS = [
  ['facts', 'Facts', FactsView],
  ['review', 'Review', ReviewView],
  ['graph', 'Graph', GraphView],
  ['recall', 'Recall', RecallView],
  ['episodes', 'Episodes', EpisodesView],
  ['audit', 'Audit', AuditView],
  ['consolidation', 'Consolidation', ConsolidationView],
];

const ROOT_KEY = 'strata-inspector-root';

function viewFromHash() {
  const name = location.hash.replace(/^#\/?/, '');
  return VIEWS.some(([id]) => id === name) ? name : 'facts';
}

/**
 * The scopes under the root (every scope in the store without one), as a tree to pick from. With
 * no scope picked yet, picks the one the API suggests: the first that holds facts.
 */
function ScopeList({ root, scope, onPick }) {
  const scopes = useLoad(() => api('/api/scopes', { query: { root } }), [root]);
  useEffect(() => {
    if (scope === undefined && scopes.data?.start) onPick(scopeText(scopes.data.start));
  }, [scopes.data]);
  const items = (scopes.data?.items ?? []).map(scopeText);
  // Each tenant's root heads its branch of the tree, even when nothing is stored at the root itself.
  const heads = root === undefined ? items.map((text) => text.split(',')[0]) : [root];
  for (const head of heads) if (!items.includes(head)) items.push(head);
  items.sort();
  return html`<nav class="scopes" aria-label="Scopes">
    <h2>${root === undefined ? 'All scopes' : 'Scopes'}</h2>
    <${ErrorLine} error=${scopes.error} />
    ${scopes.data && items.length === 0 ? html`<p class="muted small">This store holds nothing yet.</p>` : ''}
    <ul>
      ${items.map((text) => {
        // Indented by depth, showing its own level; the full scope is its name and tooltip.
        const levels = text.split(',');
        return html`<li key=${text} style=${`padding-left: ${(levels.length - 1) * 10}px`}>
            <button
              class=${text === scope ? 'link selected' : 'link'}
              aria-label=${text}
              title=${text}
              onClick=${() => onPick(text)}
            >${levels.length === 1 ? text : levels[levels.length - 1]}</button>
          </li>`;
      })}
    </ul>
  </nav>`;
}

function RootForm({ root, onOpen, onAll }) {
  const [draft, setDraft] = useState(root ?? '');
  function submit(event) {
    event.preventDefault();
    if (draft.trim()) onOpen(draft.trim());
  }
  return html`<form class="row" onSubmit=${submit}>
    <input aria-label="Root scope" placeholder="org=acme" value=${draft} onInput=${(e) => setDraft(e.currentTarget.value)} />
    <button type="submit">Open scope</button>
    ${root === undefined ? '' : html`<button type="button" onClick=${onAll}>All scopes</button>`}
  </form>`;
}

function App() {
  const info = useLoad(() => api('/api/info'), []);
  // The root the scope list is under (undefined: every scope in the store), and the scope shown.
  const [root, setRoot] = useState(undefined);
  const [scope, setScope] = useState(undefined);
  const [view, setView] = useState(viewFromHash());
  const [search, setSearch] = useState('');

  useEffect(() => {
    if (!info.data) return;
    const start = info.data.scope ?? localStorage.getItem(ROOT_KEY) ?? undefined;
    setRoot(start);
    setScope(start);
  }, [info.data]);

  useEffect(() => {
    const follow = () => setView(viewFromHash());
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);

  function open(text) {
    localStorage.setItem(ROOT_KEY, text);
    setRoot(text);
    setScope(text);
  }

  function openAll() {
    localStorage.removeItem(ROOT_KEY);
    setRoot(undefined);
    setScope(undefined);
  }

  const Current = VIEWS.find(([id]) => id === view)?.[2] ?? FactsView;
  return html`<div class="shell">
    <header class="top">
      <h1>Strata inspector</h1>
      <span class="muted small">${info.data?.store ?? ''}</span>
      <div class="grow"></div>
      <${RootForm} key=${root ?? ''} root=${root} onOpen=${open} onAll=${openAll} />
    </header>
    <${ErrorLine} error=${info.error} />
    ${
      info.data === undefined
        ? ''
        : html`<div class="body">
            <${ScopeList} key=${root ?? ''} root=${root} scope=${scope} onPick=${setScope} />
            ${
              scope === undefined
                ? html`<main class="empty"><p>Pick a scope on the left, or name one (a tenant such as <code>org=acme</code> or <code>user=maria</code>) in the box above.</p></main>`
                : html`<main>
              <div class="toolbar">
                <nav class="tabs" aria-label="Views">
                  ${VIEWS.map(
                    ([id, label]) =>
                      html`<a href=${`#${id}`} class=${id === view ? 'tab active' : 'tab'}>${label}</a>`,
                  )}
                </nav>
                <input class="search" type="search" aria-label="Search" placeholder="Search facts, graph, episodes" value=${search} onInput=${(e) => setSearch(e.currentTarget.value)} />
              </div>
              <p class="muted small">Scope <b>${scope}</b> (sees its own items and its ancestors')</p>
              <${Current} key=${`${view}:${scope}`} scope=${scope} search=${search} />
            </main>`
            }
          </div>`
    }
  </div>`;
}

render(html`<${App} />`, document.getElementById('app'));
