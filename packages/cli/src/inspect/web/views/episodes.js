import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, formatTime } from '../api.js';
import { ErrorLine, Provenance, Status, useLoad } from './common.js';

/** Episodes the scope sees: the latest, or keyword matches for a search. */
export function EpisodesView({ scope, search }) {
  const episodes = useLoad(() => api('/api/episodes', { query: { scope, q: search } }), [scope, search]);
  const [open, setOpen] = useState(undefined);
  const items = episodes.data?.items ?? [];
  return html`<section>
    <h2>Episodes <span class="muted">${search ? `matching “${search}”` : 'latest'} · ${items.length}</span></h2>
    <${ErrorLine} error=${episodes.error} />
    <table class="episodes">
      <thead><tr><th>when</th><th>speaker</th><th>text</th><th>status</th><th>provenance</th></tr></thead>
      <tbody>
        ${items.map(
          (
            episode,
          ) => html`<tr key=${episode.id} onClick=${() => setOpen(open === episode.id ? undefined : episode.id)}>
            <td class="small">${formatTime(episode.occurredAt)}</td>
            <td>${episode.speaker ?? episode.role ?? ''}</td>
            <td class=${open === episode.id ? '' : 'clip'}>${episode.text}</td>
            <td><${Status} status=${episode.status} /></td>
            <td><${Provenance} provenance=${episode.provenance} /></td>
          </tr>`,
        )}
      </tbody>
    </table>
  </section>`;
}
