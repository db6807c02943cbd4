import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, formatTime, formatValue, scopeText } from '../api.js';
import { ErrorLine, Provenance, Status, useLoad } from './common.js';

function matches(fact, search) {
  if (!search) return true;
  const text = `${fact.entityType} ${fact.entityId} ${fact.key} ${formatValue(fact.value)}`.toLowerCase();
  return text.includes(search.toLowerCase());
}

/** Reads the edited text back as a value of the same kind as the old one. */
function editedValue(text, previous) {
  if (typeof previous === 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function FactDetail({ fact, onChanged }) {
  // Read and correct the fact where it lives (it may belong to an ancestor of the chosen scope).
  const scope = scopeText(fact.scope);
  const key = { entity: fact.entityId, entityType: fact.entityType, key: fact.key };
  const history = useLoad(() => api('/api/facts/history', { query: { scope, ...key } }), [scope, fact.id]);
  const [draft, setDraft] = useState(formatValue(fact.value));
  const [error, setError] = useState(undefined);
  const [saving, setSaving] = useState(false);

  async function save(event) {
    event.preventDefault();
    setSaving(true);
    setError(undefined);
    try {
      await api('/api/facts/correct', { body: { scope, ...key, value: editedValue(draft, fact.value) } });
      onChanged();
    } catch (caught) {
      setError(caught);
    } finally {
      setSaving(false);
    }
  }

  return html`<aside class="detail" aria-label="Fact detail">
    <h3>${fact.entityId} · ${fact.key}</h3>
    <p class="muted">${fact.entityType} at ${scopeText(fact.scope)}</p>
    <form class="row" onSubmit=${save}>
      <label>Correct value <input aria-label="New value" value=${draft} onInput=${(e) => setDraft(e.currentTarget.value)} /></label>
      <button type="submit" disabled=${saving}>Save correction</button>
    </form>
    <p class="muted small">Saved as a human correction: a new version; the old one stays in the history.</p>
    <${ErrorLine} error=${error} />
    <h4>History</h4>
    <${ErrorLine} error=${history.error} />
    <table class="history">
      <thead><tr><th>v</th><th>value</th><th>status</th><th>confidence</th><th>valid</th><th>provenance</th></tr></thead>
      <tbody>
        ${(history.data?.items ?? [])
          .slice()
          .reverse()
          .map(
            (version) => html`<tr key=${version.id}>
              <td>${version.version}</td>
              <td>${formatValue(version.value)}</td>
              <td><${Status} status=${version.status} /></td>
              <td>${version.confidence.toFixed(2)}</td>
              <td class="small">${formatTime(version.validFrom)}${version.validTo ? ` → ${formatTime(version.validTo)}` : ''}</td>
              <td><${Provenance} provenance=${version.provenance} /></td>
            </tr>`,
          )}
      </tbody>
    </table>
  </aside>`;
}

/** Current facts the scope sees, filterable, with each one's history, provenance and a correction form. */
export function FactsView({ scope, search }) {
  const facts = useLoad(() => api('/api/facts', { query: { scope } }), [scope]);
  const [selected, setSelected] = useState(undefined);
  const items = (facts.data?.items ?? []).filter((fact) => matches(fact, search));
  const current = items.find((fact) => fact.id === selected) ?? undefined;

  function changed() {
    setSelected(undefined);
    facts.reload();
  }

  return html`<section class="split">
    <div class="list">
      <h2>Facts <span class="muted">${items.length}</span></h2>
      <${ErrorLine} error=${facts.error} />
      ${items.length === 0 && !facts.loading ? html`<p class="muted">No current facts at this scope.</p>` : ''}
      <table class="facts">
        <thead><tr><th>entity</th><th>key</th><th>value</th><th>conf.</th><th>v</th><th>status</th><th>provenance</th></tr></thead>
        <tbody>
          ${items.map(
            (fact) => html`<tr
              key=${fact.id}
              class=${fact.id === selected ? 'selected' : ''}
              onClick=${() => setSelected(fact.id)}
            >
              <td>${fact.entityId} <span class="muted small">${fact.entityType}</span></td>
              <td>${fact.key}</td>
              <td class="value">${formatValue(fact.value)}</td>
              <td>${fact.confidence.toFixed(2)}</td>
              <td>${fact.version}</td>
              <td><${Status} status=${fact.status} /></td>
              <td><${Provenance} provenance=${fact.provenance} /></td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>
    ${current ? html`<${FactDetail} key=${current.id} fact=${current} onChanged=${changed} />` : ''}
  </section>`;
}
