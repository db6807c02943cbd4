import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorLine } from './common.js';

function scoreText(scores) {
  if (!scores) return '';
  return Object.entries(scores)
    .filter(([, value]) => typeof value === 'number')
    .map(([name, value]) => `${name} ${value.toFixed(3)}`)
    .join(' · ');
}

/** Runs a recall at the scope and shows the block an agent would get and why each item is (not) in it. */
export function RecallView({ scope }) {
  const [query, setQuery] = useState('');
  const [budget, setBudget] = useState('2000');
  const [result, setResult] = useState(undefined);
  const [error, setError] = useState(undefined);
  const [busy, setBusy] = useState(false);

  async function run(event) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const budgetTokens = Number(budget);
      setResult(
        await api('/api/recall', {
          body: { scope, ...(query ? { query } : {}), ...(budget ? { budgetTokens } : {}) },
        }),
      );
    } catch (caught) {
      setError(caught);
      setResult(undefined);
    } finally {
      setBusy(false);
    }
  }

  return html`<section>
    <h2>Recall playground</h2>
    <form class="row" onSubmit=${run}>
      <input class="grow" aria-label="Query" placeholder="What the agent is about to answer" value=${query} onInput=${(e) => setQuery(e.currentTarget.value)} />
      <label>Budget <input aria-label="Budget tokens" class="narrow" type="number" min="50" value=${budget} onInput=${(e) => setBudget(e.currentTarget.value)} /></label>
      <button type="submit" disabled=${busy}>${busy ? 'Recalling…' : 'Recall'}</button>
    </form>
    <${ErrorLine} error=${error} />
    ${
      result
        ? html`<h3>Block <span class="muted">${result.tokens} tokens</span></h3>
            <pre class="block" aria-label="Recalled block">${result.block}</pre>
            <h3>Explanation</h3>
            <table class="explain">
              <thead><tr><th>layer</th><th>in</th><th>tokens</th><th>reason</th><th>scores</th><th>id</th></tr></thead>
              <tbody>
                ${result.explain.map(
                  (
                    entry,
                  ) => html`<tr key=${`${entry.layer}:${entry.id}`} class=${entry.included ? '' : 'excluded'}>
                    <td>${entry.layer}</td>
                    <td>${entry.included ? '✓' : '–'}</td>
                    <td>${entry.tokens}</td>
                    <td>${entry.reason}</td>
                    <td class="small">${scoreText(entry.scores)}</td>
                    <td class="small muted">${entry.id}</td>
                  </tr>`,
                )}
              </tbody>
            </table>`
        : ''
    }
  </section>`;
}
