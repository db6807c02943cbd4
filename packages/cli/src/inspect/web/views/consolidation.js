import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorLine } from './common.js';

/** A consolidation dry run over the scope's subtree: what a real run would merge, archive and flag. */
export function ConsolidationView({ scope }) {
  const [report, setReport] = useState(undefined);
  const [error, setError] = useState(undefined);
  const [busy, setBusy] = useState(false);

  async function preview() {
    setBusy(true);
    setError(undefined);
    try {
      setReport(await api('/api/consolidation', { query: { scope } }));
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  return html`<section>
    <h2>Consolidation preview</h2>
    <p class="muted">A dry run: nothing is changed. Run <code>strata consolidate</code> to apply it.</p>
    <button onClick=${preview} disabled=${busy}>${busy ? 'Checking…' : 'Preview consolidation'}</button>
    <${ErrorLine} error=${error} />
    ${
      report
        ? html`<div aria-label="Consolidation report">
            <p class="small muted">Checked ${report.checked.scopes} scopes, ${report.checked.episodes} episodes, ${report.checked.facts} facts, ${report.checked.replacementEdges} replacement edges.</p>
            <ul class="notes">${report.notes.map((note) => html`<li>${note}</li>`)}</ul>
            <table>
              <tbody>
                <tr><th>merges</th><td>${report.merged.length}</td><td class="small">${report.merged.map((m) => `${m.mergedIds.join(', ')} → ${m.keptId}`).join('; ')}</td></tr>
                <tr><th>archives</th><td>${report.archived.length}</td><td class="small">${report.archived.map((a) => a.ids.join(', ')).join('; ')}</td></tr>
                <tr><th>stale facts</th><td>${report.staleFacts.length}</td><td class="small">${report.staleFacts.join(', ')}</td></tr>
                <tr><th>graph superseded</th><td>${report.supersededGraph.length}</td><td class="small">${report.supersededGraph.join(', ')}</td></tr>
              </tbody>
            </table>
          </div>`
        : ''
    }
  </section>`;
}
