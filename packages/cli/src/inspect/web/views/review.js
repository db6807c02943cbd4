import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, formatTime, formatValue, scopeText } from '../api.js';
import { ErrorLine, Provenance, Status, useLoad } from './common.js';

function Proposal({ item }) {
  const p = item.proposal;
  if (item.kind === 'edge') {
    return html`<p class="proposal">${p.from?.name} <b>${p.relation}</b> ${p.to?.name}</p>`;
  }
  return html`<p class="proposal">
    ${p.entityId ?? '?'} · ${p.key ?? '?'} = <b>${formatValue(p.value)}</b>
    ${p.unresolved ? html`<br /><span class="muted small">unresolved: ${p.unresolved}</span>` : ''}
  </p>`;
}

function ReviewCard({ item, onDecided }) {
  const [note, setNote] = useState('');
  const [entity, setEntity] = useState('');
  const [key, setKey] = useState('');
  const [error, setError] = useState(undefined);
  const [busy, setBusy] = useState(false);
  const scope = scopeText(item.scope);

  async function decide(verb) {
    setBusy(true);
    setError(undefined);
    try {
      const fact = entity && key ? { entity, key } : undefined;
      await api(`/api/review/${verb}`, {
        body: {
          scope,
          id: item.id,
          ...(note ? { note } : {}),
          ...(verb === 'approve' && fact ? { fact } : {}),
        },
      });
      onDecided();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  return html`<article class="card" aria-label=${`Review item ${item.id}`}>
    <header>
      <span class="tag">${item.reason}</span> <span class="tag">${item.kind}</span>
      <${Status} status=${item.status} />
      <span class="muted small">confidence ${item.confidence.toFixed(2)} · ${scope} · ${formatTime(item.createdAt)}</span>
    </header>
    <${Proposal} item=${item} />
    ${item.proposal.evidence ? html`<blockquote>${item.proposal.evidence}</blockquote>` : ''}
    <p class="small"><${Provenance} provenance=${item.provenance} /></p>
    ${
      item.status === 'pending'
        ? html`<div class="row">
            <input aria-label="Note" placeholder="note (optional)" value=${note} onInput=${(e) => setNote(e.currentTarget.value)} />
            ${
              item.kind === 'fact'
                ? html`<input aria-label="Approve as entity" placeholder="as entity (optional)" value=${entity} onInput=${(e) => setEntity(e.currentTarget.value)} />
                    <input aria-label="Approve as key" placeholder="as key (optional)" value=${key} onInput=${(e) => setKey(e.currentTarget.value)} />`
                : ''
            }
            <button disabled=${busy} onClick=${() => decide('approve')}>Approve</button>
            <button class="secondary" disabled=${busy} onClick=${() => decide('reject')}>Reject</button>
          </div>`
        : html`<p class="small muted">${item.status} by ${item.decidedBy} ${formatTime(item.decidedAt)}${item.note ? ` — ${item.note}` : ''}</p>`
    }
    <${ErrorLine} error=${error} />
  </article>`;
}

/** The review queue: proposals the engine would not write on its own, to approve or reject. */
export function ReviewView({ scope }) {
  const [status, setStatus] = useState('pending');
  const review = useLoad(() => api('/api/review', { query: { scope, status } }), [scope, status]);
  const items = review.data?.items ?? [];
  return html`<section>
    <h2>Review queue <span class="muted">${items.length}</span></h2>
    <div class="row">
      <label>Status
        <select aria-label="Review status" value=${status} onChange=${(e) => setStatus(e.currentTarget.value)}>
          ${['pending', 'approved', 'rejected', 'all'].map((s) => html`<option value=${s}>${s}</option>`)}
        </select>
      </label>
    </div>
    <${ErrorLine} error=${review.error} />
    ${items.length === 0 && !review.loading ? html`<p class="muted">Nothing ${status === 'all' ? '' : status} here.</p>` : ''}
    ${items.map((item) => html`<${ReviewCard} key=${item.id} item=${item} onDecided=${review.reload} />`)}
  </section>`;
}
