import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { api, formatTime, scopeText } from '../api.js';
import { ErrorLine } from './common.js';

/** The audit log, newest first, filtered by action, a page at a time. */
export function AuditView({ scope }) {
  const [action, setAction] = useState('');
  const [applied, setApplied] = useState('');
  const [entries, setEntries] = useState([]);
  const [cursor, setCursor] = useState(undefined);
  const [error, setError] = useState(undefined);

  async function load(after) {
    setError(undefined);
    try {
      const page = await api('/api/audit', { query: { scope, action: applied, limit: 50, cursor: after } });
      setEntries((previous) => (after ? [...previous, ...page.items] : page.items));
      setCursor(page.nextCursor);
    } catch (caught) {
      setError(caught);
    }
  }

  useEffect(() => {
    void load(undefined); // load catches its own errors and shows them
  }, [scope, applied]);

  function filter(event) {
    event.preventDefault();
    setApplied(action.trim());
  }

  return html`<section>
    <h2>Audit log</h2>
    <form class="row" onSubmit=${filter}>
      <input aria-label="Action" placeholder="action, e.g. fact.supersede" value=${action} onInput=${(e) => setAction(e.currentTarget.value)} />
      <button type="submit">Filter</button>
    </form>
    <${ErrorLine} error=${error} />
    <table class="audit">
      <thead><tr><th>at</th><th>action</th><th>actor</th><th>subject</th><th>scope</th><th>details</th></tr></thead>
      <tbody>
        ${entries.map(
          (entry) => html`<tr key=${entry.id}>
            <td class="small">${formatTime(entry.at)}</td>
            <td><code>${entry.action}</code></td>
            <td>${entry.actor}</td>
            <td class="small">${entry.subjectType ?? ''} ${entry.subjectId ?? ''}</td>
            <td class="small">${scopeText(entry.scope)}</td>
            <td class="small details">${Object.keys(entry.details).length ? JSON.stringify(entry.details) : ''}</td>
          </tr>`,
        )}
      </tbody>
    </table>
    ${entries.length === 0 ? html`<p class="muted">No entries.</p>` : ''}
    ${cursor ? html`<button class="secondary" onClick=${() => load(cursor)}>Load more</button>` : ''}
  </section>`;
}
