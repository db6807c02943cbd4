import { html } from 'htm/preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { formatTime } from '../api.js';

/**
 * Loads data with `load()` whenever `deps` change (the caller lists what the loader reads). Returns `{ data, error, loading, reload }`.
 */
export function useLoad(load, deps) {
  const [state, setState] = useState({ data: undefined, error: undefined, loading: true });
  const run = useCallback(() => {
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => setState({ data, error: undefined, loading: false }),
      (error) => setState({ data: undefined, error, loading: false }),
    );
  }, deps);
  useEffect(run, [run]);
  return { ...state, reload: run };
}

/** An API error as one line: the message and its code. */
export function ErrorLine({ error }) {
  if (!error) return null;
  return html`<p class="error" role="alert">${error.message}${error.code ? html` <code>${error.code}</code>` : ''}</p>`;
}

/** Where an item came from: source, who, which extractor, when. */
export function Provenance({ provenance }) {
  if (!provenance) return null;
  const parts = [provenance.source];
  if (provenance.principalId) parts.push(`by ${provenance.principalId}`);
  if (provenance.extractor) parts.push(`via ${provenance.extractor}`);
  return html`<span class="provenance" title=${JSON.stringify(provenance)}>
    ${parts.join(' ')} <span class="muted">${formatTime(provenance.at)}</span>
  </span>`;
}

/** A status word, coloured by what it means. */
export function Status({ status }) {
  return html`<span class=${`status status-${status}`}>${status}</span>`;
}
